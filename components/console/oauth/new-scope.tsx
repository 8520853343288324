'use client';
import { useRouter } from 'next/navigation';
import { ScopeForm } from './scope-form';

export function NewScope() {
  const router = useRouter();
  return <ScopeForm canWrite onSaved={(s) => router.push(`/console/oauth/scopes/${encodeURIComponent(s.Id)}`)} />;
}

'use client';
import { useRouter } from 'next/navigation';
import { ApiForm } from './api-form';

export function NewApi() {
  const router = useRouter();
  return <ApiForm canWrite onSaved={(a) => router.push(`/console/oauth/apis/${encodeURIComponent(a.Id)}`)} />;
}

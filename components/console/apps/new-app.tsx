'use client';
import { useRouter } from 'next/navigation';
import { AppForm, usePrimaryDomain } from './app-form';

export function NewApp() {
  const router = useRouter();
  const primaryDomain = usePrimaryDomain();
  return <AppForm canWrite primaryDomain={primaryDomain} onSaved={(a) => router.push(`/console/apps/${encodeURIComponent(a.Id)}`)} />;
}

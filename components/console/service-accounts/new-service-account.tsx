'use client';
import { useRouter } from 'next/navigation';
import { ServiceAccountForm } from './service-account-form';

export function NewServiceAccount({ canReadGroups }: { canReadGroups: boolean }) {
  const router = useRouter();
  return <ServiceAccountForm canWrite canReadGroups={canReadGroups} onSaved={(a) => router.push(`/console/service-accounts/${encodeURIComponent(a.Id)}`)} />;
}

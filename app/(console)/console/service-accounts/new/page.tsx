import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { NewServiceAccount } from '@/components/console/service-accounts/new-service-account';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New service account' };

export default async function NewServiceAccountPage() {
  const user = await requirePageUser();
  if (!can(user, 'service-account:write')) return <NoAccess what="service account creation" />;
  return (
    <>
      <PageHeader back={{ href: '/console/service-accounts', label: 'Service accounts' }} title="New service account" />
      <NewServiceAccount canReadGroups={can(user, 'authorization-group:read')} />
    </>
  );
}

import type { Metadata } from 'next';
import { NewApp } from '@/components/console/apps/new-app';
import { can } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New application' };

export default async function NewAppPage() {
  const user = await requirePageUser();
  if (!can(user, 'app:write')) return <NoAccess what="application creation" />;
  return (
    <>
      <PageHeader back={{ href: '/console/apps', label: 'Applications' }} title="New application" />
      <NewApp />
    </>
  );
}

import type { Metadata } from 'next';
import { NewGroup } from '@/components/console/groups/new-group';
import { can } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New group' };

export default async function NewGroupPage() {
  const user = await requirePageUser();
  if (!can(user, 'authorization-group:write')) return <NoAccess what="group creation" />;
  return (
    <>
      <PageHeader back={{ href: '/console/groups', label: 'Groups' }} title="New group" />
      <NewGroup />
    </>
  );
}

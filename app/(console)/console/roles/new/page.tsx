import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { NewRole } from '@/components/console/roles/new-role';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New role' };

export default async function NewRolePage() {
  const user = await requirePageUser();
  if (!can(user, 'permission-role:write')) return <NoAccess what="role creation" />;
  return (
    <>
      <PageHeader back={{ href: '/console/roles', label: 'Roles' }} title="New role" />
      <NewRole />
    </>
  );
}

import type { Metadata } from 'next';
import Link from 'next/link';
import { can } from '@/components/console/permissions';
import { RoleList } from '@/components/console/roles/role-list';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Roles' };

export default async function RolesPage() {
  const user = await requirePageUser();
  if (!can(user, 'permission-role:read')) return <NoAccess what="roles" />;
  return (
    <>
      <PageHeader
        title="Roles"
        description="A role is a named set of one application’s permissions; groups grant roles."
        actions={
          can(user, 'permission-role:write') ? (
            <Link href="/console/roles/new" className={buttonClass('primary')}>
              New role
            </Link>
          ) : null
        }
      />
      <RoleList />
    </>
  );
}

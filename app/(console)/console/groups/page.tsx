import type { Metadata } from 'next';
import Link from 'next/link';
import { GroupList } from '@/components/console/groups/group-list';
import { can } from '@/components/console/permissions';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Groups' };

export default async function GroupsPage() {
  const user = await requirePageUser();
  if (!can(user, 'authorization-group:read')) return <NoAccess what="groups" />;
  return (
    <>
      <PageHeader
        title="Groups"
        description="Groups grant roles to their members, and can be nested."
        actions={
          can(user, 'authorization-group:write') ? (
            <Link href="/console/groups/new" className={buttonClass('primary')}>
              New group
            </Link>
          ) : null
        }
      />
      <GroupList />
    </>
  );
}

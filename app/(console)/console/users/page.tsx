import type { Metadata } from 'next';
import Link from 'next/link';
import { can } from '@/components/console/permissions';
import { UserList } from '@/components/console/users/user-list';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  const user = await requirePageUser();
  if (!can(user, 'user:read')) return <NoAccess what="users" />;
  return (
    <>
      <PageHeader
        title="Users"
        description="People who can sign in to this realm."
        actions={
          can(user, 'user:write') ? (
            <Link href="/console/users/new" className={buttonClass('primary')}>
              New user
            </Link>
          ) : null
        }
      />
      <UserList canWrite={can(user, 'user:write')} selfId={user.Id} />
    </>
  );
}

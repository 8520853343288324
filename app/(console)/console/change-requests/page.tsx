import type { Metadata } from 'next';
import { ChangeRequestList } from '@/components/console/change-requests/change-request-list';
import { can } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';
import '@/components/account/account.css';

export const metadata: Metadata = { title: 'Change requests' };

export default async function ChangeRequestsPage() {
  const user = await requirePageUser();
  if (!can(user, 'user:write')) return <NoAccess what="profile change requests" />;
  return (
    <>
      <PageHeader title="Change requests" description="Profile changes users asked for. Approving applies them; a new e-mail address arrives confirmed." />
      <ChangeRequestList />
    </>
  );
}

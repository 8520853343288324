import type { Metadata } from 'next';
import { InviteCodes } from '@/components/console/invite-codes/invite-codes';
import { can } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Invite codes' };

export default async function InviteCodesPage() {
  const user = await requirePageUser();
  if (!can(user, 'invite-code:read')) return <NoAccess what="invite codes" />;
  return (
    <>
      <PageHeader title="Invite codes" description="Single-use codes that let someone sign up to an application, when sign-up needs an invitation." />
      <InviteCodes canWrite={can(user, 'invite-code:write')} />
    </>
  );
}

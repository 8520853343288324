import type { Metadata } from 'next';
import { ConfirmLink } from '@/components/account/confirm-link';
import { ConsoleShell } from '@/app/_shell/console-shell';
import { PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';
import '@/components/account/account.css';

export const metadata: Metadata = { title: 'Link an account' };

// The confirmation of a link the person started from the account page (issue 30 item 6): the
// upstream answered, and nothing is linked until the person says yes here (docs/external-identity.md).
export default async function LinkAccountPage() {
  const user = await requirePageUser();
  return (
    <ConsoleShell user={user}>
      <PageHeader title="Link an account" description="Confirm the account of another provider before it can sign you in here." />
      <ConfirmLink you={user.UserName} email={user.Email} />
    </ConsoleShell>
  );
}

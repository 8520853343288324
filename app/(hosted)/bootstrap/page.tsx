import type { Metadata } from 'next';
import Link from 'next/link';
import { BootstrapForm } from '@/components/hosted/bootstrap-form';
import { DeadInvite } from '@/components/hosted/dead-invite';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { Alert } from '@/components/ui/alert';
import { adminInviteState } from '@/lib/domain/invites/admin-invite-state';
import { realmSettings } from '@/lib/domain/realm-settings/realm-settings';
import { pageContext } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Set up your administrator account', referrer: 'no-referrer' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// The page an invite's magic link opens (spec 2.2, 3.3; CONTRACT.md): the invited administrator
// chooses a password. The link's state is read first (nothing is spent), so a used or expired link
// says so before anyone types a password; POST /api/account/bootstrap-admin checks it again.
export default async function BootstrapPage({ searchParams }: Props) {
  const raw = (await searchParams).token;
  const token = typeof raw === 'string' ? raw.trim() : '';
  const ctx = await pageContext();
  if (!token) {
    return (
      <HostedShell title="Set up your administrator account">
        <div className="stack">
          <Alert tone="warning" title="This link is incomplete">
            <p>
              Open the full invite link you received. It ends with <code>?token=…</code>.
            </p>
          </Alert>
          <Link href="/login" className="btn btn-block">
            Go to sign-in
          </Link>
        </div>
      </HostedShell>
    );
  }
  const state = await adminInviteState(ctx, token);
  if (state !== 'open') {
    return (
      <HostedShell title="Set up your administrator account">
        <DeadInvite reason={state} />
      </HostedShell>
    );
  }
  const settings = await realmSettings(ctx.realm);
  return (
    <HostedShell title="Set up your administrator account" subtitle="Choose the password you will sign in with.">
      <BootstrapForm token={token} minLength={settings.PasswordPolicy.MinLength} />
    </HostedShell>
  );
}

import type { Metadata } from 'next';
import Link from 'next/link';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { IncompleteLink } from '@/components/hosted/incomplete-link';
import { param, type SearchParams } from '@/components/hosted/page-params';
import { ResetPasswordForm } from '@/components/hosted/password-recovery';
import { Alert } from '@/components/ui/alert';
import { resetLinkState } from '@/lib/domain/passwords/reset-link';
import { realmSettings } from '@/lib/domain/realm-settings/realm-settings';
import { pageContext } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Choose a new password', referrer: 'no-referrer' };

const DEAD = {
  expired: 'This link has expired',
  used: 'This link has already been used',
  invalid: 'This link is not valid',
  'too-many-attempts': 'This link is not valid',
} as const;

// The mailed reset link (spec 4.1). The link names the account: the page reads the address it was
// mailed to from the token (nothing is spent), so the person only chooses the new password, and a
// dead link says so before anything is typed. POST /api/account/reset-password checks it all again.
export default async function ResetPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const token = param((await searchParams).token);
  if (!token) {
    return (
      <HostedShell title="Choose a new password">
        <IncompleteLink what="password reset" />
      </HostedShell>
    );
  }
  const ctx = await pageContext();
  const link = await resetLinkState(ctx, token);
  if (link.state !== 'open') {
    return (
      <HostedShell title="Choose a new password">
        <div className="stack">
          <Alert tone="danger" title={DEAD[link.state]}>
            <p>Reset links work once, for a limited time. Ask for a new one and use the newest e-mail.</p>
          </Alert>
          <Link href="/forgot-password" className="btn btn-primary btn-block">
            Ask for a new reset link
          </Link>
          <Link href="/login" className="btn btn-ghost btn-block">
            Back to sign-in
          </Link>
        </div>
      </HostedShell>
    );
  }
  const settings = await realmSettings(ctx.realm);
  return (
    <HostedShell
      title="Choose a new password"
      subtitle={
        <>
          For the account of <strong>{link.email}</strong>.
        </>
      }
    >
      <ResetPasswordForm token={token} email={link.email} minLength={settings.PasswordPolicy.MinLength} />
    </HostedShell>
  );
}

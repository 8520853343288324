import type { Metadata } from 'next';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { IncompleteLink } from '@/components/hosted/incomplete-link';
import { param, type SearchParams } from '@/components/hosted/page-params';
import { ResetPasswordForm } from '@/components/hosted/password-recovery';
import { realmSettings } from '@/lib/domain/realm-settings/realm-settings';
import { pageContext } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Choose a new password', referrer: 'no-referrer' };

// The mailed reset link (spec 4.1): the token is checked by POST /api/account/reset-password.
export default async function ResetPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const token = param((await searchParams).token);
  const { realm } = await pageContext();
  const settings = await realmSettings(realm);
  return (
    <HostedShell title="Choose a new password" subtitle="Confirm your e-mail address and pick a new password.">
      {token ? <ResetPasswordForm token={token} minLength={settings.PasswordPolicy.MinLength} /> : <IncompleteLink what="password reset" />}
    </HostedShell>
  );
}

import type { Metadata } from 'next';
import Link from 'next/link';
import { BootstrapForm } from '@/components/hosted/bootstrap-form';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { Alert } from '@/components/ui/alert';
import { realmSettings } from '@/lib/domain/realm-settings/realm-settings';
import { pageContext } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Set up your administrator account', referrer: 'no-referrer' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// The page an invite's magic link opens (spec 2.2, 3.3; CONTRACT.md): the invited administrator
// chooses a password. The token is checked by POST /api/account/bootstrap-admin, not here, so the
// page reveals nothing about it.
export default async function BootstrapPage({ searchParams }: Props) {
  const raw = (await searchParams).token;
  const token = typeof raw === 'string' ? raw.trim() : '';
  const { realm } = await pageContext();
  const settings = await realmSettings(realm);
  return (
    <HostedShell title="Set up your administrator account" subtitle="Choose the password you will sign in with.">
      {token ? (
        <BootstrapForm token={token} minLength={settings.PasswordPolicy.MinLength} />
      ) : (
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
      )}
    </HostedShell>
  );
}

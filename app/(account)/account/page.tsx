import type { Metadata } from 'next';
import { EmailSection } from '@/components/account/email-section';
import { LinkedAccountsSection } from '@/components/account/linked-accounts-section';
import { PasskeysSection } from '@/components/account/passkeys-section';
import { PasswordSection } from '@/components/account/password-section';
import { PrivacySection } from '@/components/account/privacy-section';
import { ProfileSection } from '@/components/account/profile-section';
import { SessionsSection } from '@/components/account/sessions-section';
import { SignInMethodsSection } from '@/components/account/sign-in-methods-section';
import { SignOutButton } from '@/components/account/sign-out-button';
import { TwoFactorSection } from '@/components/account/two-factor-section';
import { ConsoleShell } from '@/app/_shell/console-shell';
import { asExternalNotice } from '@/components/hosted/external-entry';
import { PageHeader } from '@/components/ui/page-header';
import { realmSettings } from '@/lib/domain/realm-settings/realm-settings';
import { RealmFeatures } from '@/lib/domain/realm-settings/features';
import { flag } from '@/lib/domain/flags/registry';
import { hasPassword } from '@/lib/domain/users/password-presence';
import { realmDb } from '@/lib/realm/context';
import { pageContext, requirePageUser } from '@/lib/http/page-context';
import '@/components/account/account.css';

export const metadata: Metadata = { title: 'My account' };

const SECTIONS = [
  { id: 'profile', label: 'Profile' },
  { id: 'password', label: 'Password' },
  { id: 'two-factor', label: 'Two-factor' },
  { id: 'passkeys', label: 'Passkeys' },
  { id: 'linked-accounts', label: 'Linked accounts' },
  { id: 'email', label: 'E-mail' },
  { id: 'sign-in-methods', label: 'Sign-in methods' },
  { id: 'sessions', label: 'Sessions' },
  { id: 'permissions', label: 'Permissions' },
  { id: 'privacy', label: 'Your data' },
];

// Self-service (spec 4.2, 4.3): profile by change request, password, second factor, passkeys,
// e-mail, and what this realm offers; sessions (spec 4.6). One page with anchored sections.
// `?error=external-*` is a failed link of an external account (the sign-in page sends it here).
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AccountPage({ searchParams }: Props) {
  const user = await requirePageUser();
  const linkNotice = asExternalNotice((await searchParams).error);
  const { realm } = await pageContext();
  const settings = await realmSettings(realm);
  const passkeys = await flag({ realm }, RealmFeatures.Passkeys);
  // Whether deleting the account asks for a password (the answer only, never the hash).
  const withPassword = await hasPassword(await realmDb(realm), user.Id);
  const passwordOffered = settings.SignIn.Password && !settings.SignIn.PasswordlessOnly;
  return (
    <ConsoleShell user={user}>
      <PageHeader title="My account" description={`Your account in ${user.RealmDisplayName}.`} actions={<SignOutButton />} />
      <nav className="card account-toc" aria-label="Account sections">
        <div className="card-body">
          <ul>
            {SECTIONS.filter((s) => s.id !== 'password' || passwordOffered).map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`}>{s.label}</a>
              </li>
            ))}
          </ul>
        </div>
      </nav>
      <ProfileSection user={user} />
      {passwordOffered ? <PasswordSection minLength={settings.PasswordPolicy.MinLength} /> : null}
      <TwoFactorSection required={settings.TwoFactor.Required} />
      <PasskeysSection enabled={passkeys} />
      <LinkedAccountsSection notice={linkNotice} />
      <EmailSection email={user.Email} confirmed={user.EmailConfirmed} />
      <SignInMethodsSection />
      <SessionsSection />
      <section className="card account-section" id="permissions" aria-labelledby="perm-heading" tabIndex={-1}>
        <div className="card-header">
          <h2 id="perm-heading">Your permissions</h2>
        </div>
        <div className="card-body stack">
          <p className="muted small">
            Realm <strong>{user.RealmDisplayName}</strong> <span className="mono">({user.Realm})</span>
          </p>
          <div className="chips">
            {user.Permissions.length ? (
              user.Permissions.map((p) => (
                <span key={p} className="chip chip-static mono">
                  {p}
                </span>
              ))
            ) : (
              <span className="muted">No administrative permissions.</span>
            )}
          </div>
          {user.ControlPlanePermissions?.length ? (
            <>
              <h3>Platform</h3>
              <div className="chips">
                {user.ControlPlanePermissions.map((p) => (
                  <span key={p} className="chip chip-static mono">
                    {p}
                  </span>
                ))}
              </div>
            </>
          ) : null}
        </div>
      </section>
      <PrivacySection hasPassword={withPassword} email={user.Email} />
    </ConsoleShell>
  );
}

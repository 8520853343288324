'use client';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/components/data/api';
import { QueryState } from '@/components/ui/query-state';
import { accountKeys, type AppInfo, type MfaStatus, type Passkey } from './account-types';
import { AccountSection } from './section';

type Method = { name: string; offered: boolean; yours: string };

/** Which ways to sign in this realm offers, and which of them are set up for you. */
export function SignInMethodsSection() {
  const info = useQuery({ queryKey: accountKeys.appInfo, queryFn: ({ signal }) => api<AppInfo>('/api/app-info', { signal }) });
  const mfa = useQuery({ queryKey: accountKeys.mfa, queryFn: ({ signal }) => api<MfaStatus>('/api/account/mfa/status', { signal }) });
  const passkeys = useQuery({ queryKey: accountKeys.passkeys, queryFn: ({ signal }) => api<Passkey[]>('/api/account/passkey', { signal }) });
  const s = info.data?.SignIn;
  const count = passkeys.data?.length ?? 0;
  const methods: Method[] = s
    ? [
        { name: 'Password', offered: s.Password && !s.PasswordlessOnly, yours: 'See “Password” below' },
        { name: 'Code by e-mail', offered: s.EmailOtp, yours: 'Uses your e-mail address' },
        { name: 'Link by e-mail', offered: s.MagicLink, yours: 'Uses your e-mail address' },
        { name: 'Passkey', offered: s.Passkeys, yours: count ? `${count} passkey${count === 1 ? '' : 's'}` : 'None yet' },
        { name: 'Authenticator app (second step)', offered: true, yours: mfa.data ? (mfa.data.enabled ? 'On' : 'Off') : '…' },
      ]
    : [];
  return (
    <AccountSection
      id="sign-in-methods"
      title="Sign-in methods"
      description={info.data ? `What ${info.data.DisplayName} offers, and what you have set up.` : undefined}
    >
      <QueryState isPending={info.isPending} error={info.error} onRetry={() => info.refetch()}>
        <ul className="account-methods" aria-label="Sign-in methods">
          {methods.map((m) => (
            <li key={m.name}>
              <span>
                <strong>{m.name}</strong>
                {m.offered ? <span className="muted small"> — {m.yours}</span> : null}
              </span>
              {m.offered ? <span className="badge badge-success">Available</span> : <span className="badge">Not offered</span>}
            </li>
          ))}
        </ul>
      </QueryState>
    </AccountSection>
  );
}

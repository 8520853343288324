'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRef, useState } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from '@/lib/domain/mfa/policy';
import type { passkeySchema } from '@/lib/domain/passkeys/schemas';
import type { securityInfoSchema } from '@/lib/domain/user-security/schemas';
import type { WireOf } from '@/lib/http/wire';
import type { User } from '../directory-types';

type SecurityInfo = WireOf<typeof securityInfoSchema>;
type Passkey = WireOf<typeof passkeySchema>;

export const securityKeys = {
  info: (id: string) => ['users', 'security', id] as const,
  passkeys: (id: string) => ['users', 'passkeys', id] as const,
};

const POLICY_LABELS: Record<TwoFactorPolicy, string> = {
  Default: 'As the realm decides',
  Required: 'Always required',
  Exempt: 'Never required',
};

/** The confirmable actions: what each asks, says and calls. */
type Action =
  | { kind: 'reset-2fa' }
  | { kind: 'remove-passkey'; passkey: Passkey }
  | { kind: 'remove-passkeys' }
  | { kind: 'restart-grace' }
  | { kind: 'clear-grace' }
  | { kind: 'magic-link' };

/**
 * A person's sign-in security as an administrator sees it (spec 4.7 "User administration"): the
 * second factor, passkeys and the secure-setup grace period, and the recovery actions after a lost
 * device. Every action asks first; the answers carry the new state, which replaces the shown one.
 */
export function UserSecurity({ user, canReadLog }: { user: User; canReadLog: boolean }) {
  const queryClient = useQueryClient();
  const base = `/api/admin/users/${encodeURIComponent(user.Id)}`;
  const info = useQuery({ queryKey: securityKeys.info(user.Id), queryFn: ({ signal }) => api<SecurityInfo>(`${base}/security-info`, { signal }) });
  const passkeys = useQuery({ queryKey: securityKeys.passkeys(user.Id), queryFn: ({ signal }) => api<Passkey[]>(`${base}/passkeys`, { signal }) });
  const [action, setAction] = useState<Action | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const liveRef = useRef<HTMLDivElement>(null);
  const live = !user.IsDeleted;

  const done = (text: string, updated?: SecurityInfo) => {
    if (updated) queryClient.setQueryData(securityKeys.info(user.Id), updated);
    else void queryClient.invalidateQueries({ queryKey: securityKeys.info(user.Id) });
    void queryClient.invalidateQueries({ queryKey: securityKeys.passkeys(user.Id) });
    setAction(null);
    setNotice(text);
    // The button that was used may be gone: focus goes to the outcome.
    window.requestAnimationFrame(() => liveRef.current?.focus());
  };

  const run = useMutation({
    mutationFn: async (a: Action): Promise<{ text: string; info?: SecurityInfo }> => {
      switch (a.kind) {
        case 'reset-2fa':
          return { text: 'Two-step sign-in was reset. The person was told by e-mail.', info: await api<SecurityInfo>(`${base}/mfa`, { method: 'DELETE' }) };
        case 'remove-passkey':
          return {
            text: `Passkey “${a.passkey.DisplayName}” removed. The person was told by e-mail.`,
            info: await api<SecurityInfo>(`${base}/passkeys/${encodeURIComponent(a.passkey.Id)}`, { method: 'DELETE' }),
          };
        case 'remove-passkeys':
          return { text: 'All passkeys were removed. The person was told by e-mail.', info: await api<SecurityInfo>(`${base}/passkeys`, { method: 'DELETE' }) };
        case 'restart-grace':
          return { text: 'A new grace period started.', info: await api<SecurityInfo>(`${base}/grace/reset`, { method: 'POST' }) };
        case 'clear-grace':
          await api(`${base}/grace`, { method: 'DELETE' });
          return { text: 'The deadline was cleared. The next sign-in starts a fresh grace period.' };
        case 'magic-link': {
          const sent = await api<{ ExpiresAt: string }>(`${base}/magic-link`, { method: 'POST', body: {} });
          return { text: `A sign-in link was sent to ${user.Email}. It works once, until ${formatDate(sent.ExpiresAt)}.` };
        }
      }
    },
    onSuccess: (r) => done(r.text, r.info),
  });
  const setPolicy = useMutation({
    mutationFn: (Policy: TwoFactorPolicy) => api<SecurityInfo>(`${base}/grace/policy`, { method: 'PUT', body: { Policy } }),
    onSuccess: (s) => done(`Two-step sign-in is now ${POLICY_LABELS[s.TwoFactorPolicy].toLowerCase()} for this person.`, s),
  });

  const open = (a: Action) => {
    run.reset();
    setNotice(null);
    setAction(a);
  };
  const s = info.data;
  const onlyWayIn = s !== undefined && !s.HasPassword;

  return (
    <section className="card" aria-labelledby="security-heading">
      <div className="card-header">
        <h2 id="security-heading">Security</h2>
        {canReadLog ? (
          <Link className="small" href={`/console/security-log?userId=${encodeURIComponent(user.Id)}&person=${encodeURIComponent(user.UserName)}`}>
            Security log entries
          </Link>
        ) : null}
      </div>
      <div className="card-body stack">
        <div ref={liveRef} aria-live="polite" aria-atomic="true" tabIndex={-1}>
          {notice ? <Alert tone="success" title={notice} live="off" /> : null}
        </div>
        {setPolicy.isError ? <Alert tone="danger" title={problemMessage(setPolicy.error)} /> : null}
        <QueryState isPending={info.isPending} error={info.error} onRetry={() => info.refetch()}>
          {s ? (
            <>
              <dl className="dl">
                <dt>Two-step sign-in</dt>
                <dd>
                  {s.TwoFactorEnabled ? (
                    <span className="badge badge-success">On</span>
                  ) : s.HasAuthenticator ? (
                    'Set-up not finished'
                  ) : (
                    <span className="badge">Off</span>
                  )}{' '}
                  {s.TwoFactorRequired ? <span className="muted small">Required</span> : <span className="muted small">Not required</span>}
                </dd>
                <dt>Passkeys</dt>
                <dd>{s.PasskeyCount === 0 ? 'None' : s.PasskeyCount}</dd>
                <dt>Password</dt>
                <dd>{s.HasPassword ? 'Set' : 'None'}</dd>
                <dt>Set-up deadline</dt>
                <dd>
                  {s.SecureSetupDueAt ? formatDate(s.SecureSetupDueAt) : 'None'}
                  {s.GracePeriodActive ? <span className="muted small"> (grace period running)</span> : null}
                </dd>
              </dl>
              {live ? (
                <form
                  className="toolbar"
                  aria-label="Two-step sign-in policy"
                  onSubmit={(e) => {
                    e.preventDefault();
                    const value = new FormData(e.currentTarget).get('policy') as TwoFactorPolicy;
                    setNotice(null);
                    setPolicy.mutate(value);
                  }}
                >
                  <label className="small" htmlFor="two-factor-policy">
                    Two-step sign-in for this person
                  </label>
                  <select id="two-factor-policy" name="policy" className="select" defaultValue={s.TwoFactorPolicy} key={s.TwoFactorPolicy}>
                    {TWO_FACTOR_POLICIES.map((p) => (
                      <option key={p} value={p}>
                        {POLICY_LABELS[p]}
                      </option>
                    ))}
                  </select>
                  <Button type="submit" size="sm" busy={setPolicy.isPending} busyLabel="Saving…">
                    Save policy
                  </Button>
                </form>
              ) : null}
            </>
          ) : null}
        </QueryState>

        <QueryState isPending={passkeys.isPending} error={passkeys.error} onRetry={() => passkeys.refetch()}>
          {passkeys.data?.length ? (
            <div className="table-wrap">
              <table className="table" aria-label="Passkeys">
                <thead>
                  <tr>
                    <th scope="col">Passkey</th>
                    <th scope="col">Added</th>
                    <th scope="col">Last used</th>
                    {live ? (
                      <th scope="col" className="actions">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody>
                  {passkeys.data.map((p) => (
                    <tr key={p.Id}>
                      <td>{p.DisplayName}</td>
                      <td className="small">{formatDate(p.CreatedAt)}</td>
                      <td className="small">{p.LastUsedAt ? formatDate(p.LastUsedAt) : <span className="muted">Never</span>}</td>
                      {live ? (
                        <td className="actions">
                          <Button
                            variant="ghost"
                            size="sm"
                            aria-label={`Remove passkey ${p.DisplayName}`}
                            onClick={() => open({ kind: 'remove-passkey', passkey: p })}
                          >
                            Remove
                          </Button>
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </QueryState>

        {live && s ? (
          <div className="form-actions">
            {s.TwoFactorEnabled || s.HasAuthenticator ? (
              <Button variant="danger" onClick={() => open({ kind: 'reset-2fa' })}>
                Reset two-step sign-in…
              </Button>
            ) : null}
            {s.PasskeyCount > 0 ? (
              <Button variant="danger" onClick={() => open({ kind: 'remove-passkeys' })}>
                Remove all passkeys…
              </Button>
            ) : null}
            {s.TwoFactorRequired ? <Button onClick={() => open({ kind: 'restart-grace' })}>Restart grace period…</Button> : null}
            {s.SecureSetupDueAt ? <Button onClick={() => open({ kind: 'clear-grace' })}>Clear deadline…</Button> : null}
            {user.IsActive ? <Button onClick={() => open({ kind: 'magic-link' })}>Send sign-in link…</Button> : null}
          </div>
        ) : null}
      </div>
      <ConfirmDialog
        open={action !== null}
        onClose={() => setAction(null)}
        onConfirm={() => action && run.mutate(action)}
        title={action ? confirmTitle(action) : ''}
        confirmLabel={action ? confirmLabel(action) : ''}
        busyLabel="Working…"
        busy={run.isPending}
        tone={action && (action.kind === 'magic-link' || action.kind === 'restart-grace') ? 'primary' : 'danger'}
        error={run.isError ? problemMessage(run.error) : null}
      >
        {action ? <ConfirmBody action={action} info={s} onlyWayIn={onlyWayIn} email={user.Email} /> : null}
      </ConfirmDialog>
    </section>
  );
}

function confirmTitle(a: Action): string {
  switch (a.kind) {
    case 'reset-2fa':
      return 'Reset two-step sign-in?';
    case 'remove-passkey':
      return `Remove passkey “${a.passkey.DisplayName}”?`;
    case 'remove-passkeys':
      return 'Remove all passkeys?';
    case 'restart-grace':
      return 'Restart the grace period?';
    case 'clear-grace':
      return 'Clear the set-up deadline?';
    case 'magic-link':
      return 'Send a sign-in link?';
  }
}

function confirmLabel(a: Action): string {
  switch (a.kind) {
    case 'reset-2fa':
      return 'Reset two-step sign-in';
    case 'remove-passkey':
      return 'Remove passkey';
    case 'remove-passkeys':
      return 'Remove all passkeys';
    case 'restart-grace':
      return 'Restart grace period';
    case 'clear-grace':
      return 'Clear deadline';
    case 'magic-link':
      return 'Send link';
  }
}

function ConfirmBody({ action, info, onlyWayIn, email }: { action: Action; info?: SecurityInfo; onlyWayIn: boolean; email: string }) {
  const lastWay = onlyWayIn && (action.kind === 'remove-passkeys' || (action.kind === 'remove-passkey' && info?.PasskeyCount === 1));
  switch (action.kind) {
    case 'reset-2fa':
      return (
        <>
          <p>The authenticator app is removed and its codes stop working. Use this when the person lost their phone.</p>
          {info?.TwoFactorRequired ? <p>Two-step sign-in is required for them: they get a new grace period to set it up again.</p> : null}
          <p className="muted small">The person is told by e-mail.</p>
        </>
      );
    case 'remove-passkey':
    case 'remove-passkeys':
      return (
        <>
          <p>{action.kind === 'remove-passkey' ? 'This passkey' : 'Every passkey of this person'} stops signing them in. Use this when a device was lost.</p>
          {lastWay ? (
            <Alert tone="warning" title="This is their only way to sign in.">
              <p>Afterwards, send them a sign-in link so they can get back in.</p>
            </Alert>
          ) : null}
          <p className="muted small">The person is told by e-mail.</p>
        </>
      );
    case 'restart-grace':
      return <p>The person gets the realm’s full grace period, from now, to set up two-step sign-in.</p>;
    case 'clear-grace':
      return <p>The deadline is removed. The next time they sign in, a fresh grace period starts.</p>;
    case 'magic-link':
      return <p>A single-use sign-in link goes to {email}. An earlier link stops working.</p>;
  }
}

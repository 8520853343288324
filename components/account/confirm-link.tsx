'use client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { QueryState } from '@/components/ui/query-state';
import { accountKeys, type PendingLink } from './account-types';

const BACK = '/account#linked-accounts';

/**
 * "Link <upstream account> at <provider> to your account <you>?": the account the provider signed in
 * is named before anything links; Link POSTs the confirmation (same-origin, CSRF-checked), Cancel
 * drops the pending link. Both go back to the linked accounts.
 */
export function ConfirmLink({ you, email }: { you: string; email?: string | null }) {
  const pending = useQuery({
    queryKey: accountKeys.pendingLink,
    queryFn: ({ signal }) => api<PendingLink>('/api/account/external-links/pending', { signal }),
    retry: false,
  });
  const confirm = useMutation({
    mutationFn: () => api('/api/account/external-links/confirm', { method: 'POST' }),
    onSuccess: () => window.location.assign(BACK),
  });
  const cancel = useMutation({
    mutationFn: () => api('/api/account/external-links/pending', { method: 'DELETE' }),
    onSettled: () => window.location.assign(BACK),
  });
  const p = pending.data;
  return (
    <section className="card account-section" aria-labelledby="confirm-link-heading">
      <div className="card-header">
        <h2 id="confirm-link-heading">{p ? `Link ${p.Account} at ${p.Provider} to your account ${you}?` : 'Link an account'}</h2>
      </div>
      <QueryState isPending={pending.isPending} error={pending.error}>
        {p ? (
          <div className="card-body stack">
            <p>
              After this, whoever can sign in to <strong>{p.Account}</strong> at <strong>{p.Provider}</strong> can sign in here as you ({you}
              {email ? `, ${email}` : ''}). Link it only if that account is yours and you started this from your account page.
            </p>
            <dl className="small">
              <dt>Provider</dt>
              <dd>{p.Provider}</dd>
              <dt>Account</dt>
              <dd>{p.Account}</dd>
              <dt>Identifier</dt>
              <dd className="mono">{p.Subject}</dd>
              <dt>Issuer</dt>
              <dd className="mono">{p.Issuer}</dd>
            </dl>
            {confirm.isError ? (
              <Alert tone="danger" title="The account was not linked">
                {problemMessage(confirm.error)}
              </Alert>
            ) : null}
            <div className="row">
              <Button variant="primary" busy={confirm.isPending} busyLabel="Linking…" disabled={cancel.isPending} onClick={() => confirm.mutate()}>
                Link {p.Provider} account
              </Button>
              <Button disabled={confirm.isPending || cancel.isPending} onClick={() => cancel.mutate()}>
                Cancel
              </Button>
            </div>
          </div>
        ) : null}
      </QueryState>
      {pending.isError ? (
        <div className="card-body">
          <a href={BACK}>Back to your account</a>
        </div>
      ) : null}
    </section>
  );
}

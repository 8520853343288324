'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ExternalNoticeAlert } from '@/components/hosted/external-sign-in';
import { type ExternalNotice } from '@/components/hosted/external-entry';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { accountKeys, type ExternalLink, type ExternalLogin, type StartedLink } from './account-types';
import { AccountSection } from './section';

/**
 * Linked accounts (spec 3.6, 4.5): the person's upstream identities with unlinking, and a Link button
 * for each OIDC or SAML provider not linked yet. Linking is an explicit act (docs/external-identity.md
 * "Linking"): the button POSTs the intent (same-origin, CSRF-checked), the browser signs in at the
 * provider, and the confirmation page (/account/link) names the upstream account before anything links.
 */
export function LinkedAccountsSection({ notice }: { notice: ExternalNotice | null }) {
  const queryClient = useQueryClient();
  const links = useQuery({ queryKey: accountKeys.externalLinks, queryFn: ({ signal }) => api<ExternalLink[]>('/api/account/external-links', { signal }) });
  const logins = useQuery({ queryKey: accountKeys.externalLogins, queryFn: ({ signal }) => api<ExternalLogin[]>('/api/account/external-logins', { signal }) });
  const [done, setDone] = useState<string | null>(null);
  const [toUnlink, setToUnlink] = useState<ExternalLink | null>(null);
  const unlink = useMutation({
    mutationFn: (l: ExternalLink) => api(`/api/account/external-links/${encodeURIComponent(l.Id)}`, { method: 'DELETE' }),
    onSuccess: (_r, l) => {
      setToUnlink(null);
      setDone(`${l.Name} is no longer linked.`);
      void queryClient.invalidateQueries({ queryKey: accountKeys.externalLinks });
    },
  });
  const startLink = useMutation({
    mutationFn: (p: ExternalLogin) => api<StartedLink>('/api/account/external-links/start', { method: 'POST', body: { LoginProviderId: p.Id } }),
    onSuccess: (started) => window.location.assign(started.Location),
  });
  const linked = new Set((links.data ?? []).map((l) => l.LoginProviderId));
  const linkable = (logins.data ?? []).filter((p) => !linked.has(p.Id) && (p.Kind === 'Oidc' || (p.Kind === 'Saml' && p.Slug)));
  return (
    <AccountSection id="linked-accounts" title="Linked accounts" description="Accounts at other identity providers that sign you in here.">
      {notice ? <ExternalNoticeAlert notice={notice} /> : null}
      {done ? <Alert tone="success" title={done} /> : null}
      <QueryState isPending={links.isPending} error={links.error} onRetry={() => links.refetch()}>
        {links.data?.length ? (
          <div className="table-wrap">
            <table className="table">
              <caption className="visually-hidden">Your linked accounts</caption>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Account</th>
                  <th scope="col">Linked</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {links.data.map((l) => (
                  <tr key={l.Id}>
                    <td>{l.Name}</td>
                    <td className="mono small">{l.Subject}</td>
                    <td>{formatDate(l.CreatedAt)}</td>
                    <td>{l.LastUsedAt ? formatDate(l.LastUsedAt) : <span className="muted">Never</span>}</td>
                    <td className="row" style={{ justifyContent: 'flex-end' }}>
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Unlink ${l.Name}`}
                        onClick={() => {
                          setDone(null);
                          unlink.reset();
                          setToUnlink(l);
                        }}
                      >
                        Unlink
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="muted">No account of another provider is linked.</p>
        )}
      </QueryState>
      {startLink.isError ? (
        <Alert tone="danger" title="The link could not be started">
          {problemMessage(startLink.error)}
        </Alert>
      ) : null}
      {linkable.length ? (
        <div className="row" role="group" aria-label="Link another account">
          {linkable.map((p) => (
            <Button
              key={p.Id}
              variant="secondary"
              disabled={startLink.isPending}
              onClick={() => {
                setDone(null);
                startLink.mutate(p);
              }}
            >
              Link {p.Name}
            </Button>
          ))}
        </div>
      ) : null}
      <ConfirmDialog
        open={toUnlink !== null}
        onClose={() => setToUnlink(null)}
        onConfirm={() => toUnlink && unlink.mutate(toUnlink)}
        title={`Unlink ${toUnlink?.Name ?? 'this account'}?`}
        confirmLabel="Unlink"
        busyLabel="Unlinking…"
        busy={unlink.isPending}
        error={unlink.isError ? problemMessage(unlink.error) : null}
      >
        <p>You will no longer be able to sign in here with this {toUnlink?.Name} account. You can link it again later.</p>
      </ConfirmDialog>
    </AccountSection>
  );
}

'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ExternalNoticeAlert } from '@/components/hosted/external-sign-in';
import { externalEntryHref, type ExternalNotice } from '@/components/hosted/external-entry';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { accountKeys, type ExternalLink, type ExternalLogin } from './account-types';
import { AccountSection } from './section';

// Where the upstream sends the person back after linking (lib/api/external-login-endpoints.ts).
const RETURN_URL = '/account#linked-accounts';

/**
 * Linked accounts (spec 3.6, 4.5): the person's upstream identities with unlinking, and a link for
 * each OIDC or SAML provider not linked yet. Linking is a navigation to the provider's start route:
 * signed in, it links the upstream identity to this person instead of signing in.
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
  const linked = new Set((links.data ?? []).map((l) => l.LoginProviderId));
  const linkable = (logins.data ?? []).filter((p) => !linked.has(p.Id));
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
      {linkable.length ? (
        <div className="row" role="group" aria-label="Link another account">
          {linkable.map((p) => {
            const href = externalEntryHref(p, RETURN_URL);
            return href ? (
              <a key={p.Id} href={href} className={buttonClass('secondary')}>
                Link {p.Name}
              </a>
            ) : null;
          })}
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

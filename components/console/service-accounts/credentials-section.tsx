'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRef, useState } from 'react';
import { api, type ListPage } from '@/components/data/api';
import { Button } from '@/components/ui/button';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { SecretOnce } from '../secret-once';
import { oauthKeys, type Credential, type IssuedCredential } from '../oauth-types';
import { CredentialActions } from './credential-actions';
import { NewCredential } from './new-credential';

/**
 * A service account's credentials. A secret from create or rotate is shown here once, above the
 * list, until the administrator says it is stored; the list itself never carries secrets.
 */
export function CredentialsSection({
  accountId,
  canWrite,
  canReadScopes,
  canReadClients,
}: {
  accountId: string;
  canWrite: boolean;
  canReadScopes: boolean;
  canReadClients: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [issued, setIssued] = useState<{ credential: IssuedCredential; rotated: boolean } | null>(null);
  const credentials = useQuery({
    queryKey: oauthKeys.credentials(accountId),
    queryFn: ({ signal }) => api<ListPage<Credential>>(`/api/service-account/${encodeURIComponent(accountId)}/credentials?pageSize=200`, { signal }),
  });
  const items = credentials.data?.items ?? [];
  return (
    <div className="stack">
      {issued ? (
        <SecretOnce
          title={
            issued.rotated
              ? `New secret for “${issued.credential.DisplayName}”. Copy it now`
              : `Credential “${issued.credential.DisplayName}” created. Copy its secret now`
          }
          clientId={issued.credential.ClientId}
          secret={issued.credential.ClientSecret}
          actions={
            <Button
              onClick={() => {
                setIssued(null);
                heading.current?.focus();
              }}
            >
              I have stored the secret
            </Button>
          }
        >
          <p className="muted small">
            Use them at <code>/connect/token</code> with <code>grant_type=client_credentials</code>.
          </p>
        </SecretOnce>
      ) : null}
      <section className="card" aria-labelledby="credentials-heading">
        <div className="card-header">
          <h2 id="credentials-heading" ref={heading} tabIndex={-1}>
            Credentials
          </h2>
        </div>
        <QueryState isPending={credentials.isPending} error={credentials.error} onRetry={() => credentials.refetch()}>
          {items.length === 0 ? (
            <p className="empty">No credentials yet.</p>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Credential</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Last used</th>
                    {canWrite ? (
                      <th scope="col" className="actions">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody>
                  {items.map((c) => (
                    <tr key={c.Id}>
                      <td>
                        {c.DisplayName}
                        {c.IsExpired ? (
                          <>
                            {' '}
                            <span className="badge badge-danger">Expired</span>
                          </>
                        ) : null}
                        <div className="muted small mono">
                          {canReadClients ? <Link href={`/console/oauth/clients/${encodeURIComponent(c.ClientId)}`}>{c.ClientId}</Link> : c.ClientId}
                        </div>
                      </td>
                      <td>
                        <span className="chips">
                          {c.Scopes.map((s) => (
                            <span key={s} className="chip chip-static mono">
                              {s}
                            </span>
                          ))}
                          {c.Scopes.length === 0 ? <span className="muted small">None</span> : null}
                        </span>
                      </td>
                      <td className="small">{c.ExpiresAt ? formatDate(c.ExpiresAt) : 'Never'}</td>
                      <td className="small">{formatDate(c.LastUsedAt)}</td>
                      {canWrite ? (
                        <td className="actions">
                          {/* After a delete the row (and its buttons) vanish: focus goes to the heading. */}
                          <CredentialActions
                            credential={c}
                            canReadScopes={canReadScopes}
                            onRotated={(r) => setIssued({ credential: r, rotated: true })}
                            onDeleted={() => heading.current?.focus()}
                          />
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryState>
      </section>
      {canWrite ? <NewCredential accountId={accountId} canReadScopes={canReadScopes} onIssued={(c) => setIssued({ credential: c, rotated: false })} /> : null}
    </div>
  );
}

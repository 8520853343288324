'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { QueryState, formatDate } from '@/components/ui/query-state';
import type { externalLinkSchema } from '@/lib/domain/login-providers/schemas';
import type { WireOf } from '@/lib/http/wire';

type ExternalLink = WireOf<typeof externalLinkSchema>;
const linksKey = (userId: string) => ['users', 'external-links', userId] as const;

/**
 * The user's linked upstream identities (spec 4.7, GET /api/admin/users/{id}/external-links) with
 * force-unlink; the last way someone can sign in is refused (400 Idp.LastAuthMethod, shown as is).
 */
export function UserExternalLinks({ userId, canWrite }: { userId: string; canWrite: boolean }) {
  const queryClient = useQueryClient();
  const base = `/api/admin/users/${encodeURIComponent(userId)}/external-links`;
  const links = useQuery({ queryKey: linksKey(userId), queryFn: ({ signal }) => api<ExternalLink[]>(base, { signal }) });
  const [toUnlink, setToUnlink] = useState<ExternalLink | null>(null);
  const unlink = useMutation({
    mutationFn: (l: ExternalLink) => api(`${base}/${encodeURIComponent(l.Id)}`, { method: 'DELETE' }),
    onSuccess: () => {
      setToUnlink(null);
      void queryClient.invalidateQueries({ queryKey: linksKey(userId) });
    },
  });
  return (
    <section className="card" aria-labelledby="external-links-heading">
      <div className="card-header">
        <h2 id="external-links-heading">External links</h2>
      </div>
      <QueryState isPending={links.isPending} error={links.error} onRetry={() => links.refetch()}>
        {links.data?.length ? (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Linked</th>
                  <th scope="col">Last used</th>
                  {canWrite ? (
                    <th scope="col" className="actions">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {links.data.map((l) => (
                  <tr key={l.Id}>
                    <td>{l.Name}</td>
                    <td className="mono small" title={l.Issuer}>
                      {l.Subject}
                    </td>
                    <td>{formatDate(l.CreatedAt)}</td>
                    <td>{l.LastUsedAt ? formatDate(l.LastUsedAt) : <span className="muted">Never</span>}</td>
                    {canWrite ? (
                      <td className="actions">
                        <Button
                          variant="ghost"
                          size="sm"
                          aria-label={`Unlink ${l.Name}`}
                          onClick={() => {
                            unlink.reset();
                            setToUnlink(l);
                          }}
                        >
                          Unlink
                        </Button>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <div className="card-body">
            <p className="muted">No external account is linked.</p>
          </div>
        )}
      </QueryState>
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
        <p>
          The person can no longer sign in with this {toUnlink?.Name} account until it is linked again (<span className="mono">{toUnlink?.Subject}</span>).
        </p>
      </ConfirmDialog>
    </section>
  );
}

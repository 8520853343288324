'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { api, listParams, problemMessage, type ListPage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Pagination } from '@/components/ui/pagination';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { INVITE_CODE_STATUSES } from '@/lib/domain/invite-codes/status';
import { useAppLookup } from '../directory-queries';
import type { AppLookup } from '../directory-types';
import { MintInviteCodes } from './mint-invite-codes';
import { MintedCodes } from './minted-codes';
import { inviteKeys, type InviteCode, type MintedCode } from './types';

const PAGE_SIZE = 25;

function StatusBadge({ status }: { status: InviteCode['Status'] }) {
  const tone = status === 'Active' ? 'badge-success' : status === 'Revoked' ? 'badge-danger' : '';
  return <span className={`badge ${tone}`}>{status}</span>;
}

/**
 * Invite codes of every application (spec 4.7 "Invite codes"): the realm-wide list
 * (GET /api/admin/invite-codes), filtered by application and status; minting with the plaintext
 * shown once; revoking an unused code, after a confirmation.
 */
export function InviteCodes({ canWrite }: { canWrite: boolean }) {
  const id = useId();
  const queryClient = useQueryClient();
  const heading = useRef<HTMLHeadingElement>(null);
  const apps = useAppLookup();
  const [filter, setFilter] = useState<{ appId: string; status: string; page: number }>({ appId: '', status: 'Active', page: 1 });
  const [minted, setMinted] = useState<{ codes: MintedCode[]; app: AppLookup } | null>(null);
  const [toRevoke, setToRevoke] = useState<InviteCode | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const codes = useQuery({
    queryKey: inviteKeys.list(filter),
    queryFn: ({ signal }) => api<ListPage<InviteCode>>(`/api/admin/invite-codes${listParams({ ...filter, pageSize: PAGE_SIZE })}`, { signal }),
    placeholderData: keepPreviousData,
  });
  const revoke = useMutation({
    mutationFn: (c: InviteCode) => api(`/api/app/${encodeURIComponent(c.AppId)}/invite-codes/${encodeURIComponent(c.Id)}`, { method: 'DELETE' }),
    onSuccess: (_r, c) => {
      setToRevoke(null);
      setNotice(`The code${c.Label ? ` “${c.Label}”` : ''} was revoked. It can no longer be used to sign up.`);
      void queryClient.invalidateQueries({ queryKey: inviteKeys.all });
      heading.current?.focus();
    },
  });
  const appName = (appId: string) => apps.data?.find((a) => a.Id === appId)?.DisplayName ?? appId;
  const items = codes.data?.items ?? [];

  return (
    <div className="stack">
      {minted ? (
        <MintedCodes
          codes={minted.codes}
          appName={minted.app.DisplayName}
          onDone={() => {
            setMinted(null);
            heading.current?.focus();
          }}
        />
      ) : null}
      <section className="card" aria-labelledby="codes-heading">
        <div className="card-header">
          <h2 id="codes-heading" ref={heading} tabIndex={-1}>
            Codes
          </h2>
        </div>
        <div className="card-body stack">
          {notice ? <Alert tone="success" title={notice} /> : null}
          <form className="toolbar" role="search" aria-label="Filter the codes" onSubmit={(e) => e.preventDefault()}>
            <label className="small" htmlFor={`${id}-app`}>
              Application
            </label>
            <select id={`${id}-app`} className="select" value={filter.appId} onChange={(e) => setFilter({ ...filter, appId: e.target.value, page: 1 })}>
              <option value="">All</option>
              {(apps.data ?? []).map((a) => (
                <option key={a.Id} value={a.Id}>
                  {a.DisplayName}
                </option>
              ))}
            </select>
            <label className="small" htmlFor={`${id}-status`}>
              Status
            </label>
            <select id={`${id}-status`} className="select" value={filter.status} onChange={(e) => setFilter({ ...filter, status: e.target.value, page: 1 })}>
              <option value="">Any</option>
              {INVITE_CODE_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </form>
        </div>
        <QueryState isPending={codes.isPending} error={codes.error} onRetry={() => codes.refetch()}>
          {items.length === 0 ? (
            <p className="empty">{filter.appId || filter.status ? 'No codes match this filter.' : 'No invite codes yet.'}</p>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Label</th>
                    <th scope="col">Application</th>
                    <th scope="col">Status</th>
                    <th scope="col">Created</th>
                    <th scope="col">Valid until</th>
                    <th scope="col">Used</th>
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
                      <td>{c.Label ?? <span className="muted">No label</span>}</td>
                      <td>{appName(c.AppId)}</td>
                      <td>
                        <StatusBadge status={c.Status} />
                      </td>
                      <td className="small">{formatDate(c.CreatedAt)}</td>
                      <td className="small">{c.ExpiresAt ? formatDate(c.ExpiresAt) : 'No expiry'}</td>
                      <td className="small">{c.UsedAt ? formatDate(c.UsedAt) : '—'}</td>
                      {canWrite ? (
                        <td className="actions">
                          {c.Status === 'Active' ? (
                            <Button
                              variant="ghost"
                              size="sm"
                              aria-label={`Revoke code ${c.Label ?? c.Id}`}
                              onClick={() => {
                                revoke.reset();
                                setNotice(null);
                                setToRevoke(c);
                              }}
                            >
                              Revoke
                            </Button>
                          ) : null}
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {codes.data ? (
            <Pagination
              page={codes.data.page}
              pageSize={codes.data.pageSize}
              totalCount={codes.data.totalCount}
              onPage={(page) => setFilter({ ...filter, page })}
            />
          ) : null}
        </QueryState>
      </section>
      {canWrite && apps.data ? (
        <MintInviteCodes
          apps={apps.data}
          onMinted={(list, app) => {
            setNotice(null);
            setMinted({ codes: list, app });
          }}
        />
      ) : null}
      <ConfirmDialog
        open={toRevoke !== null}
        onClose={() => setToRevoke(null)}
        onConfirm={() => toRevoke && revoke.mutate(toRevoke)}
        title="Revoke this invite code?"
        confirmLabel="Revoke code"
        busyLabel="Revoking…"
        busy={revoke.isPending}
        error={revoke.isError ? problemMessage(revoke.error) : null}
      >
        <p>
          Nobody can sign up with {toRevoke?.Label ? `the code “${toRevoke.Label}”` : 'this code'} any more. People who already used a code keep their account.
        </p>
      </ConfirmDialog>
    </div>
  );
}

'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { FIELD_LABELS, PROFILE_FIELDS, shownValue, STATUS_LABELS, type ChangeRequest, type ChangeRequestStatus } from '@/components/account/account-types';
import { api, listParams, problemMessage, type ListPage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Pagination } from '@/components/ui/pagination';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';

const keys = { all: ['change-requests'] as const, list: (q: object) => ['change-requests', q] as const };

type Filter = 'Open' | 'AwaitingEmailVerification' | 'Approved,Rejected' | 'Cancelled';
const FILTERS: Record<Filter, string> = {
  Open: 'Waiting for a decision',
  AwaitingEmailVerification: 'Waiting for the new address',
  'Approved,Rejected': 'Decided',
  Cancelled: 'Cancelled by the user',
};

const badge = (s: ChangeRequestStatus) =>
  s === 'Approved' ? 'badge badge-success' : s === 'Rejected' ? 'badge badge-danger' : s === 'Open' ? 'badge badge-brand' : 'badge';

function RejectDialog({ request, onClose, onDone }: { request: ChangeRequest | null; onClose: () => void; onDone: (r: ChangeRequest) => void }) {
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const reject = useMutation({
    mutationFn: (r: ChangeRequest) =>
      api<ChangeRequest>(`/api/admin/change-requests/${encodeURIComponent(r.Id)}/reject`, { method: 'POST', body: { Reason: reason.trim() || undefined } }),
    onSuccess: (r) => {
      setReason('');
      onDone(r);
    },
  });
  const close = () => {
    setReason('');
    reject.reset();
    onClose();
  };
  return (
    <Dialog
      open={request !== null}
      onClose={close}
      title={`Reject the request of ${request?.UserName ?? 'this user'}?`}
      footer={
        <>
          <Button onClick={close} disabled={reject.isPending}>
            Cancel
          </Button>
          <Button variant="danger" busy={reject.isPending} busyLabel="Rejecting…" onClick={() => request && reject.mutate(request)}>
            Reject request
          </Button>
        </>
      }
    >
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (request && !reject.isPending) reject.mutate(request);
        }}
      >
        <p>The user’s profile stays as it is. They see the reason on their account page.</p>
        <div className="field">
          <label className="field-label" htmlFor={reasonId}>
            Reason <span className="field-optional">(optional)</span>
          </label>
          <textarea id={reasonId} className="textarea" rows={3} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />
        </div>
        {reject.isError ? <Alert tone="danger" title={problemMessage(reject.error)} /> : null}
      </form>
    </Dialog>
  );
}

function Changes({ request }: { request: ChangeRequest }) {
  const fields = PROFILE_FIELDS.filter((f) => request.Changes[f] !== undefined);
  return (
    <table className="table account-change-table">
      <caption className="visually-hidden">Changes requested by {request.UserName}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Current</th>
          <th scope="col">Requested</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => (
          <tr key={f}>
            <th scope="row">{FIELD_LABELS[f]}</th>
            <td>{shownValue(request.Current?.[f])}</td>
            <td className="account-diff-new">{shownValue(request.Changes[f])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Profile change requests (spec 3.4, 4.7): current against requested values, approve or reject. */
export function ChangeRequestList() {
  const queryClient = useQueryClient();
  const filterId = useId();
  const [filter, setFilter] = useState<Filter>('Open');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [notice, setNotice] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<ChangeRequest | null>(null);
  const q = { page, pageSize: 20, search, status: filter };
  const list = useQuery({
    queryKey: keys.list(q),
    queryFn: ({ signal }) => api<ListPage<ChangeRequest>>(`/api/admin/change-requests${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  const approve = useMutation({
    mutationFn: (r: ChangeRequest) => api<ChangeRequest>(`/api/admin/change-requests/${encodeURIComponent(r.Id)}/approve`, { method: 'POST', body: {} }),
    onSuccess: (r) => {
      setNotice(`Approved the request of ${r.UserName ?? 'the user'}; the profile is updated.`);
      void queryClient.invalidateQueries({ queryKey: keys.all });
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: keys.all }),
  });
  const open = filter === 'Open';
  return (
    <div className="stack">
      {notice ? <Alert tone="success" title={notice} /> : null}
      {approve.isError ? <Alert tone="danger" title={problemMessage(approve.error)} /> : null}
      <div className="card">
        <div className="toolbar">
          <SearchBox
            label="Search change requests"
            placeholder="User name, name or e-mail"
            onSearch={(s) => {
              setSearch(s);
              setPage(1);
            }}
          />
          <label htmlFor={filterId} className="visually-hidden">
            Show
          </label>
          <select
            id={filterId}
            className="select"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value as Filter);
              setPage(1);
            }}
          >
            {(Object.keys(FILTERS) as Filter[]).map((f) => (
              <option key={f} value={f}>
                {FILTERS[f]}
              </option>
            ))}
          </select>
        </div>
        <QueryState isPending={list.isPending} error={list.error} onRetry={() => list.refetch()}>
          {list.data && list.data.items.length === 0 ? (
            <p className="empty">{open ? 'No requests are waiting for a decision.' : 'No requests here.'}</p>
          ) : (
            <ul className="stack" style={{ listStyle: 'none', margin: 0, padding: 16 }} aria-label="Change requests">
              {list.data?.items.map((r) => (
                <li key={r.Id} className="card" aria-labelledby={`cr-${r.Id}`}>
                  <div className="card-header row-between">
                    <div>
                      <h2 id={`cr-${r.Id}`} className="row">
                        <Link href={`/console/users/${encodeURIComponent(r.UserId)}`}>{r.UserName ?? r.UserId}</Link>
                        <span className={badge(r.Status)}>{STATUS_LABELS[r.Status].replace('you', 'the user')}</span>
                      </h2>
                      <p className="muted small">
                        Sent {formatDate(r.CreatedAt)}
                        {r.DecidedAt ? `, decided ${formatDate(r.DecidedAt)}` : ''}
                      </p>
                    </div>
                    {r.Status === 'Open' ? (
                      <div className="row">
                        <Button
                          variant="primary"
                          size="sm"
                          busy={approve.isPending && approve.variables?.Id === r.Id}
                          busyLabel="Approving…"
                          disabled={approve.isPending}
                          onClick={() => {
                            setNotice(null);
                            approve.mutate(r);
                          }}
                          aria-label={`Approve the request of ${r.UserName ?? r.UserId}`}
                        >
                          Approve
                        </Button>
                        <Button
                          variant="danger"
                          size="sm"
                          disabled={approve.isPending}
                          onClick={() => {
                            setNotice(null);
                            setRejecting(r);
                          }}
                          aria-label={`Reject the request of ${r.UserName ?? r.UserId}`}
                        >
                          Reject
                        </Button>
                      </div>
                    ) : null}
                  </div>
                  <div className="card-body stack-sm">
                    <div className="table-wrap">
                      <Changes request={r} />
                    </div>
                    {r.Reason ? (
                      <p>
                        <strong>Reason:</strong> {r.Reason}
                      </p>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          )}
          {list.data ? <Pagination page={list.data.page} pageSize={list.data.pageSize} totalCount={list.data.totalCount} onPage={setPage} /> : null}
        </QueryState>
      </div>
      <RejectDialog
        request={rejecting}
        onClose={() => setRejecting(null)}
        onDone={(r) => {
          setRejecting(null);
          setNotice(`Rejected the request of ${r.UserName ?? 'the user'}.`);
          void queryClient.invalidateQueries({ queryKey: keys.all });
        }}
      />
    </div>
  );
}

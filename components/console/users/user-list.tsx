'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { api, listParams, problemMessage, type ListPage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Pagination } from '@/components/ui/pagination';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import { ActiveBadge } from '@/components/ui/status-badges';
import { keys, type User } from '../directory-types';

type Filter = 'current' | 'active' | 'inactive' | 'deleted';
const FILTERS: Record<Filter, { label: string; params: Record<string, string> }> = {
  current: { label: 'All current users', params: {} },
  active: { label: 'Active', params: { isActive: 'true' } },
  inactive: { label: 'Inactive', params: { isActive: 'false' } },
  deleted: { label: 'Deleted', params: { deleted: 'true' } },
};

type BulkResult = { Deleted?: string[]; Restored?: string[]; NotFound: string[] };

/** The list, with a selection to delete or restore several users at once (DELETE /api/user, POST /api/user/restore). */
export function UserList({ canWrite = false, selfId }: { canWrite?: boolean; selfId?: string }) {
  const filterId = useId();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Filter>('current');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: 25, search, sortBy: 'userName', ...FILTERS[filter].params };
  const users = useQuery({
    queryKey: keys.userList(q),
    queryFn: ({ signal }) => api<ListPage<User>>(`/api/user${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  const restoring = filter === 'deleted';
  const bulk = useMutation({
    mutationFn: (Ids: string[]) =>
      restoring ? api<BulkResult>('/api/user/restore', { method: 'POST', body: { Ids } }) : api<BulkResult>('/api/user', { method: 'DELETE', body: { Ids } }),
    onSuccess: (r) => {
      const done = (r.Deleted ?? r.Restored ?? []).length;
      const missing = r.NotFound.length ? ` ${r.NotFound.length} no longer existed.` : '';
      setNotice(restoring ? `${done} user(s) restored.${missing}` : `${done} user(s) deleted. You can restore them from the “Deleted” view.${missing}`);
      setSelected([]);
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: keys.users });
    },
  });
  const changeView = () => {
    setSelected([]);
    setNotice(null);
  };
  const pageIds = (users.data?.items ?? []).map((u) => u.Id).filter((id) => id !== selfId);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const toggle = (id: string, on: boolean) => setSelected((s) => (on ? [...s.filter((x) => x !== id), id] : s.filter((x) => x !== id)));
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search users"
          placeholder="Name, user name or e-mail"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
            changeView();
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
            changeView();
          }}
        >
          {(Object.keys(FILTERS) as Filter[]).map((f) => (
            <option key={f} value={f}>
              {FILTERS[f].label}
            </option>
          ))}
        </select>
        {canWrite && selected.length ? (
          <Button variant={restoring ? 'primary' : 'danger'} onClick={() => setConfirming(true)}>
            {restoring ? `Restore selected (${selected.length})` : `Delete selected (${selected.length})…`}
          </Button>
        ) : null}
      </div>
      {notice ? <Alert tone="success" title={notice} /> : null}
      <QueryState isPending={users.isPending} error={users.error} onRetry={() => users.refetch()}>
        {users.data && users.data.items.length === 0 ? (
          <p className="empty">{search ? 'No user matches this search.' : filter === 'deleted' ? 'No deleted users.' : 'No users here yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  {canWrite ? (
                    <th scope="col">
                      <input
                        type="checkbox"
                        aria-label="Select every user on this page"
                        checked={allOnPage}
                        onChange={(e) => setSelected((s) => (e.target.checked ? [...new Set([...s, ...pageIds])] : s.filter((id) => !pageIds.includes(id))))}
                      />
                    </th>
                  ) : null}
                  <th scope="col">Name</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last sign-in</th>
                </tr>
              </thead>
              <tbody>
                {users.data?.items.map((u) => (
                  <tr key={u.Id}>
                    {canWrite ? (
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Select ${u.UserName}`}
                          checked={selected.includes(u.Id)}
                          disabled={u.Id === selfId}
                          title={u.Id === selfId ? 'Your own account' : undefined}
                          onChange={(e) => toggle(u.Id, e.target.checked)}
                        />
                      </td>
                    ) : null}
                    <td>
                      <Link href={`/console/users/${encodeURIComponent(u.Id)}`}>{u.DisplayName}</Link>
                      {u.DisplayName !== u.UserName ? <div className="muted small">{u.UserName}</div> : null}
                    </td>
                    <td>{u.Email}</td>
                    <td>
                      <ActiveBadge active={u.IsActive} deleted={u.IsDeleted} />
                    </td>
                    <td className="muted small">{u.LastLoginAt ? formatDate(u.LastLoginAt) : 'Never'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {users.data && users.data.totalCount > 0 ? (
          <Pagination page={users.data.page} pageSize={users.data.pageSize} totalCount={users.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
      <ConfirmDialog
        open={confirming}
        onClose={() => {
          setConfirming(false);
          bulk.reset();
        }}
        title={restoring ? `Restore ${selected.length} user(s)?` : `Delete ${selected.length} user(s)?`}
        confirmLabel={restoring ? 'Restore users' : 'Delete users'}
        busyLabel={restoring ? 'Restoring…' : 'Deleting…'}
        tone={restoring ? 'primary' : 'danger'}
        busy={bulk.isPending}
        error={bulk.isError ? problemMessage(bulk.error) : null}
        onConfirm={() => bulk.mutate(selected)}
      >
        <p>
          {restoring
            ? 'They can sign in again as before they were deleted.'
            : 'All or none: they are signed out and hidden from lists. Their data is kept, and they can be restored from the “Deleted” view.'}
        </p>
      </ConfirmDialog>
    </div>
  );
}

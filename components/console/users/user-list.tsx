'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
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

export function UserList() {
  const filterId = useId();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Filter>('current');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: 25, search, sortBy: 'userName', ...FILTERS[filter].params };
  const users = useQuery({
    queryKey: keys.userList(q),
    queryFn: ({ signal }) => api<ListPage<User>>(`/api/user${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search users"
          placeholder="Name, user name or e-mail"
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
              {FILTERS[f].label}
            </option>
          ))}
        </select>
      </div>
      <QueryState isPending={users.isPending} error={users.error} onRetry={() => users.refetch()}>
        {users.data && users.data.items.length === 0 ? (
          <p className="empty">{search ? 'No user matches this search.' : filter === 'deleted' ? 'No deleted users.' : 'No users here yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Status</th>
                  <th scope="col">Last sign-in</th>
                </tr>
              </thead>
              <tbody>
                {users.data?.items.map((u) => (
                  <tr key={u.Id}>
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
    </div>
  );
}

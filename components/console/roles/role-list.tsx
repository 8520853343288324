'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import { useAppLookup } from '../directory-queries';
import { keys, type Role } from '../directory-types';

export function RoleList() {
  const appFilterId = useId();
  const [search, setSearch] = useState('');
  const [appId, setAppId] = useState('');
  const [page, setPage] = useState(1);
  const apps = useAppLookup();
  const q = { page, pageSize: 25, search, sortBy: 'name', appId };
  const roles = useQuery({
    queryKey: keys.roleList(q),
    queryFn: ({ signal }) => api<ListPage<Role>>(`/api/role${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search roles"
          placeholder="Role name"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
        />
        <label htmlFor={appFilterId} className="visually-hidden">
          Application
        </label>
        <select
          id={appFilterId}
          className="select"
          value={appId}
          onChange={(e) => {
            setAppId(e.target.value);
            setPage(1);
          }}
        >
          <option value="">All applications</option>
          {(apps.data ?? []).map((a) => (
            <option key={a.Id} value={a.Id}>
              {a.DisplayName}
            </option>
          ))}
        </select>
      </div>
      <QueryState isPending={roles.isPending} error={roles.error} onRetry={() => roles.refetch()}>
        {roles.data && roles.data.items.length === 0 ? (
          <p className="empty">{search || appId ? 'No role matches.' : 'No roles yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Role</th>
                  <th scope="col">Application</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">Groups</th>
                </tr>
              </thead>
              <tbody>
                {roles.data?.items.map((r) => (
                  <tr key={r.Id}>
                    <td>
                      <Link href={`/console/roles/${encodeURIComponent(r.Id)}`}>{r.Name}</Link>
                      {r.IsBuiltIn ? (
                        <>
                          {' '}
                          <span className="badge badge-plain">Built-in</span>
                        </>
                      ) : null}
                      {r.Description ? <div className="muted small">{r.Description}</div> : null}
                    </td>
                    <td className="mono small">{r.AppSlug}</td>
                    <td>
                      <span className="chips">
                        {r.Permissions.slice(0, 4).map((p) => (
                          <span key={p} className="chip chip-static mono">
                            {p}
                          </span>
                        ))}
                        {r.Permissions.length > 4 ? <span className="muted small">+{r.Permissions.length - 4} more</span> : null}
                        {r.Permissions.length === 0 ? <span className="muted small">None</span> : null}
                      </span>
                    </td>
                    <td>{r.GroupIds.length}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {roles.data && roles.data.totalCount > 0 ? (
          <Pagination page={roles.data.page} pageSize={roles.data.pageSize} totalCount={roles.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </div>
  );
}

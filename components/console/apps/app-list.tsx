'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import type { appSummarySchema } from '@/lib/domain/apps/schemas';
import type { WireOf } from '@/lib/http/wire';
import { appKeys } from './app-keys';

type AppSummary = WireOf<typeof appSummarySchema>;

export function AppList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: 25, search, sortBy: 'slug' };
  const apps = useQuery({
    queryKey: appKeys.list(q),
    queryFn: ({ signal }) => api<ListPage<AppSummary>>(`/api/app${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search applications"
          placeholder="Name or slug"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
        />
      </div>
      <QueryState isPending={apps.isPending} error={apps.error} onRetry={() => apps.refetch()}>
        {apps.data && apps.data.items.length === 0 ? (
          <p className="empty">{search ? 'No application matches.' : 'No applications yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Application</th>
                  <th scope="col">Slug</th>
                  <th scope="col">Permissions</th>
                  <th scope="col">Roles</th>
                </tr>
              </thead>
              <tbody>
                {apps.data?.items.map((a) => (
                  <tr key={a.Id}>
                    <td>
                      <Link href={`/console/apps/${encodeURIComponent(a.Id)}`}>{a.DisplayName}</Link>
                      {a.IsBuiltIn ? (
                        <>
                          {' '}
                          <span className="badge badge-plain">Built-in</span>
                        </>
                      ) : null}
                      {a.Description ? <div className="muted small">{a.Description}</div> : null}
                    </td>
                    <td className="mono small">{a.Slug}</td>
                    <td>{a.PermissionCatalog.length}</td>
                    <td>{a.RoleCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {apps.data && apps.data.totalCount > 0 ? (
          <Pagination page={apps.data.page} pageSize={apps.data.pageSize} totalCount={apps.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </div>
  );
}

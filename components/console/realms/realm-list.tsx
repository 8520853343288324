'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import { realmKeys, type Realm } from './types';

const PAGE_SIZE = 25;

export function RealmList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: PAGE_SIZE, search, sortBy: 'slug' };
  const realms = useQuery({
    queryKey: realmKeys.list(q),
    queryFn: ({ signal }) => api<ListPage<Realm>>(`/api/admin/realms${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search realms"
          placeholder="Slug, name or domain"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
        />
      </div>
      <QueryState isPending={realms.isPending} error={realms.error} onRetry={() => realms.refetch()}>
        {realms.data && realms.data.items.length === 0 ? (
          <p className="empty">{search ? 'No realm matches this search.' : 'No realms yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Realm</th>
                  <th scope="col">Primary domain</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {realms.data?.items.map((r) => (
                  <tr key={r.Id}>
                    <td>
                      <Link href={`/console/realms/${encodeURIComponent(r.Slug)}`}>{r.DisplayName}</Link>
                      <div className="muted small mono">{r.Slug}</div>
                    </td>
                    <td>{r.PrimaryDomain}</td>
                    <td>
                      <span className="row">
                        {r.IsActive ? <span className="badge badge-success">Active</span> : <span className="badge badge-danger">Inactive</span>}
                        {r.IsControlPlane ? <span className="badge badge-brand badge-plain">Control plane</span> : null}
                      </span>
                    </td>
                    <td className="muted small">{formatDate(r.CreatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {realms.data && realms.data.totalCount > 0 ? (
          <Pagination page={realms.data.page} pageSize={realms.data.pageSize} totalCount={realms.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </div>
  );
}

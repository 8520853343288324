'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import { ActiveBadge } from '@/components/ui/status-badges';
import { FLAVOR_LABELS, providerKeys, type LoginProvider } from './provider-types';

/** The realm's login providers, the built-in one first (GET /api/admin/login-providers). */
export function ProviderList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: 25, search };
  const list = useQuery({
    queryKey: providerKeys.list(q),
    queryFn: ({ signal }) => api<ListPage<LoginProvider>>(`/api/admin/login-providers${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search login providers"
          placeholder="Name, flavor or slug"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
        />
      </div>
      <QueryState isPending={list.isPending} error={list.error} onRetry={() => list.refetch()}>
        {list.data && list.data.items.length === 0 ? (
          <p className="empty">No provider matches.</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Flavor</th>
                  <th scope="col">Status</th>
                  <th scope="col">Secret</th>
                </tr>
              </thead>
              <tbody>
                {list.data?.items.map((p) => (
                  <tr key={p.Id}>
                    <td>
                      <Link href={`/console/login-providers/${encodeURIComponent(p.Id)}`}>{p.Name}</Link>
                      {p.IsBuiltIn ? (
                        <>
                          {' '}
                          <span className="badge badge-plain">Built in</span>
                        </>
                      ) : null}
                    </td>
                    <td>{FLAVOR_LABELS[p.Flavor]}</td>
                    <td>
                      <ActiveBadge active={p.IsActive} />
                    </td>
                    <td>{p.Flavor === 'Internal' || p.Flavor === 'Saml' ? <span className="muted">—</span> : p.HasSecret ? 'Set' : 'Not set'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.data && list.data.totalCount > 0 ? (
          <Pagination page={list.data.page} pageSize={list.data.pageSize} totalCount={list.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </div>
  );
}

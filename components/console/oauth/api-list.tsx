'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import { oauthKeys, type OAuthApi } from '../oauth-types';

export function ApiList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: 25, search, sortBy: 'name' };
  const apis = useQuery({
    queryKey: oauthKeys.apiList(q),
    queryFn: ({ signal }) => api<ListPage<OAuthApi>>(`/api/admin/oauth/apis${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search APIs"
          placeholder="Name or audience"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
        />
      </div>
      <QueryState isPending={apis.isPending} error={apis.error} onRetry={() => apis.refetch()}>
        {apis.data && apis.data.items.length === 0 ? (
          <p className="empty">{search ? 'No API matches.' : 'No APIs yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">API</th>
                  <th scope="col">Audience</th>
                </tr>
              </thead>
              <tbody>
                {apis.data?.items.map((a) => (
                  <tr key={a.Id}>
                    <td>
                      <Link href={`/console/oauth/apis/${encodeURIComponent(a.Id)}`}>{a.DisplayName || a.Name}</Link>
                      {a.IsBuiltIn ? (
                        <>
                          {' '}
                          <span className="badge badge-plain">Built-in</span>
                        </>
                      ) : null}
                      {a.DisplayName && a.DisplayName !== a.Name ? <div className="muted small mono">{a.Name}</div> : null}
                    </td>
                    <td className="mono small">{a.Audience}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {apis.data && apis.data.totalCount > 0 ? (
          <Pagination page={apis.data.page} pageSize={apis.data.pageSize} totalCount={apis.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </div>
  );
}

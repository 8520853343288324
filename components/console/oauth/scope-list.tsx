'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import { oauthKeys, type OAuthScope } from '../oauth-types';

export function ScopeList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: 25, search, sortBy: 'name' };
  const scopes = useQuery({
    queryKey: oauthKeys.scopeList(q),
    queryFn: ({ signal }) => api<ListPage<OAuthScope>>(`/api/admin/oauth/scopes${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search scopes"
          placeholder="Scope name"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
        />
      </div>
      <QueryState isPending={scopes.isPending} error={scopes.error} onRetry={() => scopes.refetch()}>
        {scopes.data && scopes.data.items.length === 0 ? (
          <p className="empty">{search ? 'No scope matches.' : 'No scopes yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Scope</th>
                  <th scope="col">Grants access to</th>
                </tr>
              </thead>
              <tbody>
                {scopes.data?.items.map((s) => (
                  <tr key={s.Id}>
                    <td>
                      <Link href={`/console/oauth/scopes/${encodeURIComponent(s.Id)}`} className="mono">
                        {s.Name}
                      </Link>
                      {s.IsBuiltIn ? (
                        <>
                          {' '}
                          <span className="badge badge-plain">Built-in</span>
                        </>
                      ) : null}
                      {s.DisplayName ? <div className="muted small">{s.DisplayName}</div> : null}
                    </td>
                    <td>
                      <span className="chips">
                        {s.Resources.map((r) => (
                          <span key={r} className="chip chip-static mono">
                            {r}
                          </span>
                        ))}
                        {s.Resources.length === 0 ? <span className="muted small">No API</span> : null}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {scopes.data && scopes.data.totalCount > 0 ? (
          <Pagination page={scopes.data.page} pageSize={scopes.data.pageSize} totalCount={scopes.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </div>
  );
}

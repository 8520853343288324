'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import { ActiveBadge } from '@/components/ui/status-badges';
import { CLIENT_TYPES, grantLabel, oauthKeys, type OAuthClient } from '../oauth-types';

export function ClientList() {
  const typeFilterId = useId();
  const [search, setSearch] = useState('');
  const [clientType, setClientType] = useState('');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: 25, search, sortBy: 'displayName', clientType };
  const clients = useQuery({
    queryKey: oauthKeys.clientList(q),
    queryFn: ({ signal }) => api<ListPage<OAuthClient>>(`/api/admin/oauth/clients${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search clients"
          placeholder="Client ID or name"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
        />
        <label htmlFor={typeFilterId} className="visually-hidden">
          Client type
        </label>
        <select
          id={typeFilterId}
          className="select"
          value={clientType}
          onChange={(e) => {
            setClientType(e.target.value);
            setPage(1);
          }}
        >
          <option value="">All types</option>
          {CLIENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </div>
      <QueryState isPending={clients.isPending} error={clients.error} onRetry={() => clients.refetch()}>
        {clients.data && clients.data.items.length === 0 ? (
          <p className="empty">{search || clientType ? 'No client matches.' : 'No OAuth clients yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Client</th>
                  <th scope="col">Type</th>
                  <th scope="col">Grant types</th>
                  <th scope="col">Managed by</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {clients.data?.items.map((c) => (
                  <tr key={c.Id}>
                    <td>
                      <Link href={`/console/oauth/clients/${encodeURIComponent(c.Id)}`}>{c.DisplayName}</Link>
                      {c.IsDynamic ? (
                        <>
                          {' '}
                          <span className="badge badge-plain">Dynamic</span>
                        </>
                      ) : null}
                      <div className="muted small mono">{c.ClientId}</div>
                    </td>
                    <td>{c.ClientType}</td>
                    <td>
                      <span className="chips">
                        {c.GrantTypes.map((g) => (
                          <span key={g} className="chip chip-static" title={g}>
                            {grantLabel(g)}
                          </span>
                        ))}
                      </span>
                    </td>
                    <td>
                      {c.ServiceAccountId ? (
                        <Link href={`/console/service-accounts/${encodeURIComponent(c.ServiceAccountId)}`}>Service account</Link>
                      ) : (
                        <span className="muted small">{c.IsDynamic ? 'Dynamic registration' : 'Console / API'}</span>
                      )}
                    </td>
                    <td>
                      <ActiveBadge active={c.IsActive} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {clients.data && clients.data.totalCount > 0 ? (
          <Pagination page={clients.data.page} pageSize={clients.data.pageSize} totalCount={clients.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </div>
  );
}

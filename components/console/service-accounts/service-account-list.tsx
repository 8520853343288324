'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import { ActiveBadge } from '@/components/ui/status-badges';
import { oauthKeys, type ServiceAccount } from '../oauth-types';

export function ServiceAccountList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: 25, search, sortBy: 'name' };
  const accounts = useQuery({
    queryKey: oauthKeys.serviceAccountList(q),
    queryFn: ({ signal }) => api<ListPage<ServiceAccount>>(`/api/service-account${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search service accounts"
          placeholder="Name"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
        />
      </div>
      <QueryState isPending={accounts.isPending} error={accounts.error} onRetry={() => accounts.refetch()}>
        {accounts.data && accounts.data.items.length === 0 ? (
          <p className="empty">{search ? 'No service account matches.' : 'No service accounts yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Service account</th>
                  <th scope="col">Groups</th>
                  <th scope="col">Credentials</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {accounts.data?.items.map((a) => (
                  <tr key={a.Id}>
                    <td>
                      <Link href={`/console/service-accounts/${encodeURIComponent(a.Id)}`}>{a.Name}</Link>
                      {a.Description ? <div className="muted small">{a.Description}</div> : null}
                    </td>
                    <td>{a.GroupIds.length}</td>
                    <td>{a.CredentialCount}</td>
                    <td>
                      <ActiveBadge active={a.IsActive} />
                    </td>
                    <td className="small">{formatDate(a.CreatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {accounts.data && accounts.data.totalCount > 0 ? (
          <Pagination page={accounts.data.page} pageSize={accounts.data.pageSize} totalCount={accounts.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </div>
  );
}

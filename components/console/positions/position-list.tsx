'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState, formatDate } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import { ActiveBadge } from '@/components/ui/status-badges';
import { positionKeys, type Position } from './types';

export function PositionList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: 25, search, sortBy: 'name' };
  const positions = useQuery({
    queryKey: positionKeys.list(q),
    queryFn: ({ signal }) => api<ListPage<Position>>(`/api/position${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search positions"
          placeholder="Name"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
        />
      </div>
      <QueryState isPending={positions.isPending} error={positions.error} onRetry={() => positions.refetch()}>
        {positions.data && positions.data.items.length === 0 ? (
          <p className="empty">{search ? 'No position matches.' : 'No positions yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Position</th>
                  <th scope="col">Terminals</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {positions.data?.items.map((p) => (
                  <tr key={p.Id}>
                    <td>
                      <Link href={`/console/positions/${encodeURIComponent(p.Id)}`}>{p.Name}</Link>
                      {p.Description ? <div className="muted small">{p.Description}</div> : null}
                    </td>
                    <td>{p.TerminalCount}</td>
                    <td>
                      <ActiveBadge active={p.IsActive} />
                    </td>
                    <td className="small">{formatDate(p.CreatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {positions.data && positions.data.totalCount > 0 ? (
          <Pagination page={positions.data.page} pageSize={positions.data.pageSize} totalCount={positions.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </div>
  );
}

'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, listParams, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState } from '@/components/ui/query-state';
import { SearchBox } from '@/components/ui/search-box';
import { keys, type Group } from '../directory-types';

export function BoundToChips({ group }: { group: Pick<Group, 'BoundTo' | 'Dormant'> }) {
  if (group.Dormant || group.BoundTo.length === 0) return <span className="badge">Dormant</span>;
  if (group.BoundTo.includes('*')) return <span className="muted small">All applications</span>;
  return (
    <span className="chips">
      {group.BoundTo.map((b) => (
        <span key={b} className="chip chip-static mono">
          {b}
        </span>
      ))}
    </span>
  );
}

export function GroupList() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = { page, pageSize: 25, search, sortBy: 'name' };
  const groups = useQuery({
    queryKey: keys.groupList(q),
    queryFn: ({ signal }) => api<ListPage<Group>>(`/api/group${listParams(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  return (
    <div className="card">
      <div className="toolbar">
        <SearchBox
          label="Search groups"
          placeholder="Group name"
          onSearch={(s) => {
            setSearch(s);
            setPage(1);
          }}
        />
      </div>
      <QueryState isPending={groups.isPending} error={groups.error} onRetry={() => groups.refetch()}>
        {groups.data && groups.data.items.length === 0 ? (
          <p className="empty">{search ? 'No group matches this search.' : 'No groups yet.'}</p>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col">Applies to</th>
                  <th scope="col">Roles</th>
                  <th scope="col">Direct members</th>
                </tr>
              </thead>
              <tbody>
                {groups.data?.items.map((g) => (
                  <tr key={g.Id}>
                    <td>
                      <Link href={`/console/groups/${encodeURIComponent(g.Id)}`}>{g.Name}</Link>
                      {g.IsBuiltIn ? (
                        <>
                          {' '}
                          <span className="badge badge-plain">Built-in</span>
                        </>
                      ) : null}
                      {g.Description ? <div className="muted small">{g.Description}</div> : null}
                    </td>
                    <td>
                      <BoundToChips group={g} />
                    </td>
                    <td>{g.RoleIds.length}</td>
                    <td>{g.MemberCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {groups.data && groups.data.totalCount > 0 ? (
          <Pagination page={groups.data.page} pageSize={groups.data.pageSize} totalCount={groups.data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </div>
  );
}

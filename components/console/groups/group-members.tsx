'use client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { api, type ListPage } from '@/components/data/api';
import { Pagination } from '@/components/ui/pagination';
import { QueryState } from '@/components/ui/query-state';
import { ActiveBadge } from '@/components/ui/status-badges';
import { keys, type EffectiveMember } from '../directory-types';

/** GET /api/group/{id}/effective-members: direct members and those through nested groups. */
export function GroupMembers({ groupId, canReadUsers }: { groupId: string; canReadUsers: boolean }) {
  const [page, setPage] = useState(1);
  const members = useQuery({
    queryKey: [...keys.groupMembers(groupId), page],
    queryFn: ({ signal }) => api<ListPage<EffectiveMember>>(`/api/group/${encodeURIComponent(groupId)}/effective-members?page=${page}&pageSize=25`, { signal }),
    placeholderData: keepPreviousData,
  });
  const data = members.data;
  return (
    <section className="card" aria-labelledby="members-heading">
      <div className="card-header">
        <h2 id="members-heading">Members</h2>
        {data ? <span className="muted small">{data.totalCount} in total</span> : null}
      </div>
      <QueryState isPending={members.isPending} error={members.error} onRetry={() => members.refetch()}>
        {data?.items.length ? (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Member</th>
                  <th scope="col">Membership</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((m) => (
                  <tr key={m.Id}>
                    <td>
                      {canReadUsers && m.Kind === 'User' ? <Link href={`/console/users/${encodeURIComponent(m.Id)}`}>{m.DisplayName}</Link> : m.DisplayName}
                      {m.Kind === 'ServiceAccount' ? (
                        <div className="muted small">Service account</div>
                      ) : m.DisplayName !== m.UserName ? (
                        <div className="muted small">{m.UserName}</div>
                      ) : null}
                    </td>
                    <td className="small">
                      {m.Direct ? (
                        <span className="badge badge-brand badge-plain">Direct</span>
                      ) : (
                        <span className="muted">
                          via{' '}
                          {m.Via.slice(0, -1)
                            .map((v) => v.Name)
                            .join(' → ')}
                        </span>
                      )}
                    </td>
                    <td>
                      <ActiveBadge active={m.IsActive} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="empty">No members. Add people from their user page.</p>
        )}
        {data && data.totalCount > data.pageSize ? (
          <Pagination page={data.page} pageSize={data.pageSize} totalCount={data.totalCount} onPage={setPage} />
        ) : null}
      </QueryState>
    </section>
  );
}

'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { api } from '@/components/data/api';
import { QueryState } from '@/components/ui/query-state';
import { ActiveBadge } from '@/components/ui/status-badges';
import { keys, type EffectiveMember } from '../directory-types';

/** GET /api/group/{id}/effective-members: direct members and those through nested groups. */
export function GroupMembers({ groupId, canReadUsers }: { groupId: string; canReadUsers: boolean }) {
  const members = useQuery({ queryKey: keys.groupMembers(groupId), queryFn: ({ signal }) => api<EffectiveMember[]>(`/api/group/${encodeURIComponent(groupId)}/effective-members`, { signal }) });
  return (
    <section className="card" aria-labelledby="members-heading">
      <div className="card-header">
        <h2 id="members-heading">Members</h2>
        {members.data ? <span className="muted small">{members.data.length} in total</span> : null}
      </div>
      <QueryState isPending={members.isPending} error={members.error} onRetry={() => members.refetch()}>
        {members.data?.length ? (
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
                {members.data.map((m) => (
                  <tr key={m.UserId}>
                    <td>
                      {canReadUsers ? <Link href={`/console/users/${encodeURIComponent(m.UserId)}`}>{m.DisplayName}</Link> : m.DisplayName}
                      {m.DisplayName !== m.UserName ? <div className="muted small">{m.UserName}</div> : null}
                    </td>
                    <td className="small">{m.Direct ? <span className="badge badge-brand badge-plain">Direct</span> : <span className="muted">via {m.Via.slice(0, -1).map((v) => v.Name).join(' → ')}</span>}</td>
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
      </QueryState>
    </section>
  );
}

'use client';
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Fragment } from 'react';
import { api } from '@/components/data/api';
import { QueryState } from '@/components/ui/query-state';
import type { effectiveGroupsSchema } from '@/lib/domain/users/effective-groups-schema';
import type { WireOf } from '@/lib/http/wire';

type EffectiveGroups = WireOf<typeof effectiveGroupsSchema>;

/**
 * What the person's memberships add up to now (GET /api/user/{id}/effective-groups): the
 * permissions per application, and for each group whether it takes effect, for which applications,
 * and how the person is in it. A dormant group (bound to no App) grants nothing until it is bound.
 */
export function UserEffectiveAccess({ userId, canReadGroups }: { userId: string; canReadGroups: boolean }) {
  const q = useQuery({
    queryKey: ['users', 'effective-groups', userId],
    queryFn: ({ signal }) => api<EffectiveGroups>(`/api/user/${encodeURIComponent(userId)}/effective-groups`, { signal }),
  });
  const data = q.data;
  return (
    <section className="card" aria-labelledby="effective-heading">
      <div className="card-header">
        <h2 id="effective-heading">Effective access</h2>
      </div>
      <div className="card-body stack">
        <QueryState isPending={q.isPending} error={q.error} onRetry={() => q.refetch()}>
          {data ? (
            <>
              {!data.Live ? <p className="muted">The account is deactivated or deleted: none of this takes effect now.</p> : null}
              {data.Permissions.length === 0 ? (
                <p className="muted">No permissions.</p>
              ) : (
                <dl className="dl">
                  {data.Permissions.map((p) => (
                    <Fragment key={p.App}>
                      <dt>{p.App}</dt>
                      <dd>
                        <span className="chips">
                          {p.Permissions.map((name) => (
                            <span key={name} className="chip chip-static mono">
                              {name}
                            </span>
                          ))}
                        </span>
                      </dd>
                    </Fragment>
                  ))}
                </dl>
              )}
              {data.Groups.length ? (
                <div className="table-wrap">
                  <table className="table" aria-label="Effective groups">
                    <thead>
                      <tr>
                        <th scope="col">Group</th>
                        <th scope="col">Member</th>
                        <th scope="col">Takes effect for</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.Groups.map((g) => (
                        <tr key={g.Id}>
                          <td>{canReadGroups ? <Link href={`/console/groups/${encodeURIComponent(g.Id)}`}>{g.Name}</Link> : g.Name}</td>
                          <td className="small">
                            {g.Direct
                              ? 'Directly'
                              : `Through ${g.Path.filter((p) => p.Id !== g.Id)
                                  .map((p) => p.Name)
                                  .join(' → ')}`}
                          </td>
                          <td className="small">
                            {g.Dormant ? <span className="muted">Nothing (dormant: bound to no application)</span> : g.EffectiveFor.join(', ') || '—'}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              ) : null}
            </>
          ) : null}
        </QueryState>
      </div>
    </section>
  );
}

'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { api, problemMessage } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { QueryState } from '@/components/ui/query-state';
import { useAllGroups } from '../directory-queries';
import { keys, type UserGroup } from '../directory-types';

/** The user's groups, direct and inherited (spec 5.7), with adding and removing direct ones. */
export function UserGroups({ userId, canWrite, canReadGroups }: { userId: string; canWrite: boolean; canReadGroups: boolean }) {
  const queryClient = useQueryClient();
  const selectId = useId();
  const [choice, setChoice] = useState('');
  const groups = useQuery({
    queryKey: keys.userGroups(userId),
    queryFn: ({ signal }) => api<UserGroup[]>(`/api/user/${encodeURIComponent(userId)}/groups`, { signal }),
  });
  const all = useAllGroups(canWrite && canReadGroups);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: keys.userGroups(userId) });
    void queryClient.invalidateQueries({ queryKey: keys.groups });
  };
  const add = useMutation({
    mutationFn: (GroupId: string) => api(`/api/user/${encodeURIComponent(userId)}/groups`, { method: 'POST', body: { GroupId } }),
    onSuccess: () => {
      setChoice('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (groupId: string) => api(`/api/user/${encodeURIComponent(userId)}/groups/${encodeURIComponent(groupId)}`, { method: 'DELETE' }),
    onSuccess: refresh,
  });
  const direct = new Set((groups.data ?? []).filter((g) => g.Direct).map((g) => g.Id));
  const candidates = (all.data?.items ?? []).filter((g) => !direct.has(g.Id));
  const failure = add.isError ? add.error : remove.isError ? remove.error : null;

  return (
    <section className="card" aria-labelledby="groups-heading">
      <div className="card-header">
        <h2 id="groups-heading">Groups</h2>
      </div>
      <QueryState isPending={groups.isPending} error={groups.error} onRetry={() => groups.refetch()}>
        {groups.data?.length ? (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Group</th>
                  <th scope="col">Membership</th>
                  {canWrite ? (
                    <th scope="col" className="actions">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {groups.data.map((g) => (
                  <tr key={g.Id}>
                    <td>{canReadGroups ? <Link href={`/console/groups/${encodeURIComponent(g.Id)}`}>{g.Name}</Link> : g.Name}</td>
                    <td className="small">
                      {g.Direct ? (
                        <span className="badge badge-brand badge-plain">Direct</span>
                      ) : (
                        <span className="muted">
                          via{' '}
                          {g.Path.slice(0, -1)
                            .map((p) => p.Name)
                            .join(' → ')}
                        </span>
                      )}
                    </td>
                    {canWrite ? (
                      <td className="actions">
                        {g.Direct ? (
                          <Button
                            size="sm"
                            variant="ghost"
                            busy={remove.isPending && remove.variables === g.Id}
                            busyLabel="Removing…"
                            onClick={() => remove.mutate(g.Id)}
                            aria-label={`Remove from ${g.Name}`}
                          >
                            Remove
                          </Button>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="empty">Not a member of any group.</p>
        )}
      </QueryState>
      {canWrite && canReadGroups ? (
        <form
          className="card-footer row"
          onSubmit={(e) => {
            e.preventDefault();
            if (choice) add.mutate(choice);
          }}
        >
          <label htmlFor={selectId} className="visually-hidden">
            Group to add
          </label>
          <select id={selectId} className="select grow" value={choice} onChange={(e) => setChoice(e.target.value)} disabled={all.isPending}>
            <option value="">{all.isPending ? 'Loading groups…' : candidates.length ? 'Choose a group…' : 'No other groups'}</option>
            {candidates.map((g) => (
              <option key={g.Id} value={g.Id}>
                {g.Name}
              </option>
            ))}
          </select>
          <Button type="submit" disabled={!choice} busy={add.isPending} busyLabel="Adding…">
            Add to group
          </Button>
        </form>
      ) : null}
      {failure ? (
        <div className="card-body">
          <Alert tone="danger" title={problemMessage(failure)} />
        </div>
      ) : null}
    </section>
  );
}

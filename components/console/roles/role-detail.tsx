'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { api, ApiError } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { DeleteCard } from '@/components/ui/delete-card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { useAllGroups } from '../directory-queries';
import { keys, type Role } from '../directory-types';
import { RoleForm } from './role-form';

export function RoleDetail({ roleId, canWrite, canReadGroups }: { roleId: string; canWrite: boolean; canReadGroups: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: keys.role(roleId), queryFn: ({ signal }) => api<Role>(`/api/role/${encodeURIComponent(roleId)}`, { signal }) });
  const groups = useAllGroups(canReadGroups);
  const role = query.data;
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <PageHeader back={{ href: '/console/roles', label: 'Roles' }} title="Role not found" />
        <Alert tone="warning" title="This role does not exist any more." />
      </>
    );
  }
  const holders = (groups.data?.items ?? []).filter((g) => role?.GroupIds.includes(g.Id));
  return (
    <>
      <PageHeader
        back={{ href: '/console/roles', label: 'Roles' }}
        title={role?.Name ?? 'Role'}
        description={role ? <span className="mono">{role.AppSlug}</span> : undefined}
      />
      <QueryState isPending={query.isPending} error={query.error} onRetry={() => query.refetch()}>
        {role ? (
          <div className="two-col">
            <RoleForm role={role} canWrite={canWrite} onSaved={() => undefined} />
            <div className="stack">
              <section className="card" aria-labelledby="holders-heading">
                <div className="card-header">
                  <h2 id="holders-heading">Granted by</h2>
                </div>
                <div className="card-body">
                  {role.GroupIds.length === 0 ? (
                    <p className="muted">No group grants this role yet. Add it to a group on the group’s page.</p>
                  ) : canReadGroups ? (
                    <ul className="stack-sm">
                      {holders.map((g) => (
                        <li key={g.Id}>
                          <Link href={`/console/groups/${encodeURIComponent(g.Id)}`}>{g.Name}</Link>
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className="muted">{role.GroupIds.length} group(s).</p>
                  )}
                </div>
              </section>
              {canWrite && !role.IsBuiltIn ? (
                <DeleteCard
                  path={`/api/role/${encodeURIComponent(role.Id)}`}
                  what="role"
                  name={role.Name}
                  explanation="Groups that grant it stop granting its permissions."
                  onDeleted={() => {
                    queryClient.removeQueries({ queryKey: keys.role(role.Id) });
                    void queryClient.invalidateQueries({ queryKey: keys.roles });
                    void queryClient.invalidateQueries({ queryKey: keys.groups });
                    router.push('/console/roles');
                  }}
                />
              ) : null}
            </div>
          </div>
        ) : null}
      </QueryState>
    </>
  );
}

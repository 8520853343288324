'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { api, ApiError } from '@/components/data/api';
import { Alert } from '@/components/ui/alert';
import { DeleteCard } from '@/components/ui/delete-card';
import { PageHeader } from '@/components/ui/page-header';
import { QueryState } from '@/components/ui/query-state';
import { keys, type Group } from '../directory-types';
import { BoundToChips } from './group-list';
import { GroupForm } from './group-form';
import { GroupMembers } from './group-members';

export function GroupDetail({ groupId, canWrite, canReadUsers }: { groupId: string; canWrite: boolean; canReadUsers: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: keys.group(groupId), queryFn: ({ signal }) => api<Group>(`/api/group/${encodeURIComponent(groupId)}`, { signal }) });
  const group = query.data;
  if (query.error instanceof ApiError && query.error.status === 404) {
    return (
      <>
        <PageHeader back={{ href: '/console/groups', label: 'Groups' }} title="Group not found" />
        <Alert tone="warning" title="This group does not exist any more." />
      </>
    );
  }
  return (
    <>
      <PageHeader
        back={{ href: '/console/groups', label: 'Groups' }}
        title={group?.Name ?? 'Group'}
        description={group ? <BoundToChips group={group} /> : undefined}
      />
      <QueryState isPending={query.isPending} error={query.error} onRetry={() => query.refetch()}>
        {group ? (
          <div className="two-col">
            <GroupForm group={group} canWrite={canWrite} onSaved={() => undefined} />
            <div className="stack">
              <GroupMembers groupId={group.Id} canReadUsers={canReadUsers} />
              {canWrite && !group.IsBuiltIn ? (
                <DeleteCard
                  path={`/api/group/${encodeURIComponent(group.Id)}`}
                  what="group"
                  name={group.Name}
                  explanation="Its members lose the roles it grants. Users themselves are not deleted."
                  onDeleted={() => {
                    queryClient.removeQueries({ queryKey: keys.group(group.Id) });
                    void queryClient.invalidateQueries({ queryKey: keys.groups });
                    router.push('/console/groups');
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

import type { Metadata } from 'next';
import { GroupDetail } from '@/components/console/groups/group-detail';
import { can } from '@/components/console/permissions';
import { NoAccess } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'Group' };

type Props = { params: Promise<{ id: string }> };

export default async function GroupPage({ params }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'authorization-group:read')) return <NoAccess what="groups" />;
  const { id } = await params;
  return (
    <LiveDetail resource="authorization-group" id={id} thing="group" listHref="/console/groups" listLabel="Groups">
      <GroupDetail groupId={id} canWrite={can(user, 'authorization-group:write')} canReadUsers={can(user, 'user:read')} />
    </LiveDetail>
  );
}

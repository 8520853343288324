import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { RoleDetail } from '@/components/console/roles/role-detail';
import { NoAccess } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'Role' };

type Props = { params: Promise<{ id: string }> };

export default async function RolePage({ params }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'permission-role:read')) return <NoAccess what="roles" />;
  const { id } = await params;
  return (
    <LiveDetail resource="permission-role" id={id} thing="role" listHref="/console/roles" listLabel="Roles">
      <RoleDetail roleId={id} canWrite={can(user, 'permission-role:write')} canReadGroups={can(user, 'authorization-group:read')} />
    </LiveDetail>
  );
}

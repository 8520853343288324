import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { UserDetail } from '@/components/console/users/user-detail';
import { NoAccess } from '@/components/ui/page-header';
import { realmSettings } from '@/lib/domain/realm-settings/realm-settings';
import { pageContext, requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'User' };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function UserPage({ params, searchParams }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'user:read')) return <NoAccess what="users" />;
  const { id } = await params;
  const created = (await searchParams).created === '1';
  const settings = await realmSettings((await pageContext()).realm);
  return (
    <LiveDetail resource="user" id={id} thing="user" listHref="/console/users" listLabel="Users">
      <UserDetail
        userId={id}
        selfId={user.Id}
        created={created}
        canWrite={can(user, 'user:write')}
        canReadGroups={can(user, 'authorization-group:read')}
        passwordMinLength={settings.PasswordPolicy.MinLength}
        access={{
          canReadSessions: can(user, 'session:read'),
          canWriteSessions: can(user, 'session:write'),
          canReadLog: can(user, 'auth-log:read'),
          canErase: can(user, 'gdpr:admin'),
        }}
      />
    </LiveDetail>
  );
}

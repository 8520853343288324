import type { Metadata } from 'next';
import { ApiDetail } from '@/components/console/oauth/api-detail';
import { can } from '@/components/console/permissions';
import { NoAccess } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'OAuth API' };

type Props = { params: Promise<{ id: string }> };

export default async function OAuthApiPage({ params }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'oauth-api:read')) return <NoAccess what="OAuth APIs" />;
  const { id } = await params;
  const access = { canWrite: can(user, 'oauth-api:write'), canReadScopes: can(user, 'oauth-scope:read'), canWriteScopes: can(user, 'oauth-scope:write') };
  return (
    <LiveDetail resource="oauth-api" id={id} thing="OAuth API" listHref="/console/oauth/apis" listLabel="OAuth APIs">
      <ApiDetail apiId={id} access={access} />
    </LiveDetail>
  );
}

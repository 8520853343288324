import type { Metadata } from 'next';
import { ClientDetail } from '@/components/console/oauth/client-detail';
import { can } from '@/components/console/permissions';
import { NoAccess } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'OAuth client' };

type Props = { params: Promise<{ id: string }> };

export default async function OAuthClientPage({ params }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'oauth-client:read')) return <NoAccess what="OAuth clients" />;
  const { id } = await params;
  return (
    <LiveDetail resource="oauth-client" id={id} thing="OAuth client" listHref="/console/oauth/clients" listLabel="OAuth clients">
      <ClientDetail clientId={id} canWrite={can(user, 'oauth-client:write')} canReadScopes={can(user, 'oauth-scope:read')} />
    </LiveDetail>
  );
}

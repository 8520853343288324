import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { ServiceAccountDetail } from '@/components/console/service-accounts/service-account-detail';
import { NoAccess } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'Service account' };

type Props = { params: Promise<{ id: string }> };

export default async function ServiceAccountPage({ params }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'service-account:read')) return <NoAccess what="service accounts" />;
  const { id } = await params;
  const rights = {
    canWrite: can(user, 'service-account:write'),
    canReadGroups: can(user, 'authorization-group:read'),
    canReadScopes: can(user, 'oauth-scope:read'),
    canReadClients: can(user, 'oauth-client:read'),
  };
  return (
    <LiveDetail resource="service-account" id={id} thing="service account" listHref="/console/service-accounts" listLabel="Service accounts">
      <ServiceAccountDetail accountId={id} rights={rights} />
    </LiveDetail>
  );
}

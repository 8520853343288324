import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { can } from '@/components/console/permissions';
import { PositionDetail } from '@/components/console/positions/position-detail';
import { NoAccess } from '@/components/ui/page-header';
import { positionTerminalsEnabled } from '@/lib/domain/positions/feature';
import { pageContext, requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'Position' };

type Props = { params: Promise<{ id: string }> };

export default async function PositionPage({ params }: Props) {
  const user = await requirePageUser();
  if (!(await positionTerminalsEnabled((await pageContext()).realm))) notFound();
  if (!can(user, 'position:read')) return <NoAccess what="positions" />;
  const { id } = await params;
  const rights = {
    canWrite: can(user, 'position:write'),
    canReadClients: can(user, 'oauth-client:read'),
    canCreateTerminals: can(user, 'position:write') && can(user, 'oauth-client:write'),
  };
  return (
    <LiveDetail resource="position" id={id} thing="position" listHref="/console/positions" listLabel="Positions">
      <PositionDetail positionId={id} rights={rights} />
    </LiveDetail>
  );
}

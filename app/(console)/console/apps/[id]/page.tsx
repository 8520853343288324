import type { Metadata } from 'next';
import { AppDetail } from '@/components/console/apps/app-detail';
import { can } from '@/components/console/permissions';
import { NoAccess } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'Application' };

type Props = { params: Promise<{ id: string }> };

export default async function AppPage({ params }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'app:read')) return <NoAccess what="applications" />;
  const { id } = await params;
  return (
    <LiveDetail resource="app" id={id} thing="application" listHref="/console/apps" listLabel="Applications">
      <AppDetail appId={id} canWrite={can(user, 'app:write')} />
    </LiveDetail>
  );
}

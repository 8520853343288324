import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { can } from '@/components/console/permissions';
import { NewPosition } from '@/components/console/positions/new-position';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { positionTerminalsEnabled } from '@/lib/domain/positions/feature';
import { pageContext, requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New position' };

export default async function NewPositionPage() {
  const user = await requirePageUser();
  if (!(await positionTerminalsEnabled((await pageContext()).realm))) notFound();
  if (!can(user, 'position:write')) return <NoAccess what="position creation" />;
  return (
    <>
      <PageHeader back={{ href: '/console/positions', label: 'Positions' }} title="New position" />
      <NewPosition />
    </>
  );
}

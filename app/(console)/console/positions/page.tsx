import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { can } from '@/components/console/permissions';
import { PositionList } from '@/components/console/positions/position-list';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { positionTerminalsEnabled } from '@/lib/domain/positions/feature';
import { pageContext, requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Positions' };

export default async function PositionsPage() {
  const user = await requirePageUser();
  // Hidden while the realm's PositionTerminals switch is off, as the API is (spec 3.6).
  if (!(await positionTerminalsEnabled((await pageContext()).realm))) notFound();
  if (!can(user, 'position:read')) return <NoAccess what="positions" />;
  return (
    <>
      <PageHeader
        title="Positions"
        description="Places where terminals act, such as a till or a kiosk. A terminal is an OAuth client whose tokens name its position."
        actions={
          can(user, 'position:write') ? (
            <Link href="/console/positions/new" className={buttonClass('primary')}>
              New position
            </Link>
          ) : null
        }
      />
      <PositionList />
    </>
  );
}

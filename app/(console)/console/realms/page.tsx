import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { can } from '@/components/console/permissions';
import { RealmList } from '@/components/console/realms/realm-list';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Realms' };

// Realm management exists only on the control plane (spec 4.8): elsewhere the page is not there.
export default async function RealmsPage() {
  const user = await requirePageUser();
  if (!user.IsControlPlane) notFound();
  if (!can(user, 'realm:read', 'control-plane')) return <NoAccess what="realms" />;
  return (
    <>
      <PageHeader
        title="Realms"
        description="Each realm has its own users, applications and database, and is selected by its domains."
        actions={
          can(user, 'realm:write', 'control-plane') ? (
            <Link href="/console/realms/new" className={buttonClass('primary')}>
              New realm
            </Link>
          ) : null
        }
      />
      <RealmList />
    </>
  );
}

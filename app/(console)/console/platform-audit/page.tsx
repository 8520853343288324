import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { LogView } from '@/components/console/logs/log-view';
import { PlatformRetention } from '@/components/console/logs/platform-retention';
import { can } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Platform audit' };

export default async function PlatformAuditPage() {
  const user = await requirePageUser();
  if (!user.IsControlPlane) notFound();
  if (!can(user, 'control-plane:platform-audit:read', 'control-plane')) return <NoAccess what="the platform audit log" />;
  return (
    <>
      <PageHeader title="Platform audit" description="Realm-level events across the platform, without personal data, newest first." />
      <div className="stack">
        <LogView endpoint="/api/admin/platform-audit" showRealm />
        <PlatformRetention canEdit={can(user, 'realm:admin', 'control-plane')} />
      </div>
    </>
  );
}

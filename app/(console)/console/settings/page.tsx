import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { MaintenanceCard } from '@/components/console/settings/maintenance-card';
import { RealmSettingsForm } from '@/components/console/settings/realm-settings-form';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Realm settings' };

export default async function RealmSettingsPage() {
  const user = await requirePageUser();
  if (!can(user, 'realm:admin')) return <NoAccess what="the realm settings" />;
  return (
    <>
      <PageHeader
        title="Realm settings"
        description={`Sign-in, registration, passwords and branding of ${user.RealmDisplayName}. Applications may override some of these.`}
      />
      <div className="stack">
        <RealmSettingsForm />
        <MaintenanceCard />
      </div>
    </>
  );
}

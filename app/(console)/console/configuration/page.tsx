import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { ConfigurationPage } from '@/components/console/configuration/configuration-page';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Configuration' };

export default async function RealmConfigurationPage() {
  const user = await requirePageUser();
  if (!can(user, 'realm:admin')) return <NoAccess what="the realm's configuration" />;
  return (
    <>
      <PageHeader
        title="Configuration"
        description={`The structure of ${user.RealmDisplayName} as a manifest: export it, or apply one after seeing what it would change.`}
      />
      <ConfigurationPage realmSlug={user.Realm} />
    </>
  );
}

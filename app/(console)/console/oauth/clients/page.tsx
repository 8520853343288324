import type { Metadata } from 'next';
import Link from 'next/link';
import { ClientList } from '@/components/console/oauth/client-list';
import { can } from '@/components/console/permissions';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'OAuth clients' };

export default async function OAuthClientsPage() {
  const user = await requirePageUser();
  if (!can(user, 'oauth-client:read')) return <NoAccess what="OAuth clients" />;
  return (
    <>
      <PageHeader
        title="OAuth clients"
        description="Applications that sign people in or call APIs through this realm, including service-account credentials."
        actions={
          can(user, 'oauth-client:write') ? (
            <Link href="/console/oauth/clients/new" className={buttonClass('primary')}>
              New client
            </Link>
          ) : null
        }
      />
      <ClientList />
    </>
  );
}

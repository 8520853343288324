import type { Metadata } from 'next';
import { NewClient } from '@/components/console/oauth/new-client';
import { can } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New OAuth client' };

export default async function NewOAuthClientPage() {
  const user = await requirePageUser();
  if (!can(user, 'oauth-client:write')) return <NoAccess what="OAuth client creation" />;
  return (
    <>
      <PageHeader back={{ href: '/console/oauth/clients', label: 'OAuth clients' }} title="New OAuth client" />
      <NewClient canReadScopes={can(user, 'oauth-scope:read')} />
    </>
  );
}

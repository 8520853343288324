import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { NewApi } from '@/components/console/oauth/new-api';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New OAuth API' };

export default async function NewOAuthApiPage() {
  const user = await requirePageUser();
  if (!can(user, 'oauth-api:write')) return <NoAccess what="OAuth API creation" />;
  return (
    <>
      <PageHeader back={{ href: '/console/oauth/apis', label: 'OAuth APIs' }} title="New OAuth API" />
      <NewApi />
    </>
  );
}

import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { NewScope } from '@/components/console/oauth/new-scope';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New OAuth scope' };

export default async function NewOAuthScopePage() {
  const user = await requirePageUser();
  if (!can(user, 'oauth-scope:write')) return <NoAccess what="OAuth scope creation" />;
  return (
    <>
      <PageHeader back={{ href: '/console/oauth/scopes', label: 'OAuth scopes' }} title="New OAuth scope" />
      <NewScope />
    </>
  );
}

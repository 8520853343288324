import type { Metadata } from 'next';
import Link from 'next/link';
import { ScopeList } from '@/components/console/oauth/scope-list';
import { can } from '@/components/console/permissions';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'OAuth scopes' };

export default async function OAuthScopesPage() {
  const user = await requirePageUser();
  if (!can(user, 'oauth-scope:read')) return <NoAccess what="OAuth scopes" />;
  return (
    <>
      <PageHeader
        back={{ href: '/console/oauth', label: 'OAuth' }}
        title="OAuth scopes"
        description="What clients may ask for, and the APIs each scope grants access to."
        actions={
          can(user, 'oauth-scope:write') ? (
            <Link href="/console/oauth/scopes/new" className={buttonClass('primary')}>
              New scope
            </Link>
          ) : null
        }
      />
      <ScopeList />
    </>
  );
}

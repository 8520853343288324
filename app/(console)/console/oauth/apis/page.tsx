import type { Metadata } from 'next';
import Link from 'next/link';
import { ApiList } from '@/components/console/oauth/api-list';
import { can } from '@/components/console/permissions';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'OAuth APIs' };

export default async function OAuthApisPage() {
  const user = await requirePageUser();
  if (!can(user, 'oauth-api:read')) return <NoAccess what="OAuth APIs" />;
  return (
    <>
      <PageHeader
        back={{ href: '/console/oauth', label: 'OAuth' }}
        title="OAuth APIs"
        description="The resource servers this realm issues access tokens for, each by its audience."
        actions={
          can(user, 'oauth-api:write') ? (
            <Link href="/console/oauth/apis/new" className={buttonClass('primary')}>
              New API
            </Link>
          ) : null
        }
      />
      <ApiList />
    </>
  );
}

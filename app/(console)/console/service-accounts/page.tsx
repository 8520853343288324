import type { Metadata } from 'next';
import Link from 'next/link';
import { can } from '@/components/console/permissions';
import { ServiceAccountList } from '@/components/console/service-accounts/service-account-list';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Service accounts' };

export default async function ServiceAccountsPage() {
  const user = await requirePageUser();
  if (!can(user, 'service-account:read')) return <NoAccess what="service accounts" />;
  return (
    <>
      <PageHeader
        title="Service accounts"
        description="Non-human principals: their credentials get tokens with client_credentials, their permissions come from their groups."
        actions={
          can(user, 'service-account:write') ? (
            <Link href="/console/service-accounts/new" className={buttonClass('primary')}>
              New service account
            </Link>
          ) : null
        }
      />
      <ServiceAccountList />
    </>
  );
}

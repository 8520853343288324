import type { Metadata } from 'next';
import Link from 'next/link';
import { AppList } from '@/components/console/apps/app-list';
import { can } from '@/components/console/permissions';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Applications' };

export default async function AppsPage() {
  const user = await requirePageUser();
  if (!can(user, 'app:read')) return <NoAccess what="applications" />;
  return (
    <>
      <PageHeader
        title="Applications"
        description="An application has its own permissions, and may have its own address, branding and sign-up rules."
        actions={
          can(user, 'app:write') ? (
            <Link href="/console/apps/new" className={buttonClass('primary')}>
              New application
            </Link>
          ) : null
        }
      />
      <AppList />
    </>
  );
}

import type { Metadata } from 'next';
import { LogView } from '@/components/console/logs/log-view';
import { can } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Security log' };

export default async function SecurityLogPage() {
  const user = await requirePageUser();
  if (!can(user, 'auth-log:read')) return <NoAccess what="the security log" />;
  return (
    <>
      <PageHeader title="Security log" description="Sign-ins, invites and other security events of this realm, newest first." />
      <LogView endpoint="/api/admin/auth-log" />
    </>
  );
}

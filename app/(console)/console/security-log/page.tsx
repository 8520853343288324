import type { Metadata } from 'next';
import Link from 'next/link';
import { LogView } from '@/components/console/logs/log-view';
import { can } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { realmSettings } from '@/lib/domain/realm-settings/realm-settings';
import { pageContext, requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Security log' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (typeof v === 'string' && v.length <= 200 ? v : undefined);

export default async function SecurityLogPage({ searchParams }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'auth-log:read')) return <NoAccess what="the security log" />;
  const q = await searchParams;
  // A person's page links here with their id and user name (?userId=…&person=…).
  const userId = one(q.userId);
  const initialPerson = userId ? { id: userId, name: one(q.person) ?? userId } : undefined;
  const days = (await realmSettings((await pageContext()).realm)).Retention.SecurityLogDays;
  return (
    <>
      <PageHeader
        title="Security log"
        description={
          <>
            Sign-ins, account changes and other security events of this realm, newest first. Entries are kept {days} days
            {can(user, 'realm:admin') ? (
              <>
                {' '}
                (<Link href="/console/settings#settings-security-log">change</Link>)
              </>
            ) : null}
            .
          </>
        }
      />
      <LogView endpoint="/api/admin/auth-log" initialPerson={initialPerson} key={userId ?? ''} />
    </>
  );
}

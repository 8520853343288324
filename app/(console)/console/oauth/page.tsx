import type { Metadata } from 'next';
import Link from 'next/link';
import { visibleNav } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'OAuth' };

// /console/oauth: the OAuth sections the person may read (clients, APIs, scopes), as the navigation
// lists them.
export default async function OAuthPage() {
  const user = await requirePageUser();
  const items = visibleNav(user).filter((i) => i.href.startsWith('/console/oauth/'));
  if (!items.length) return <NoAccess what="OAuth" />;
  return (
    <>
      <PageHeader title="OAuth" description="Clients, the APIs they call and the scopes that connect them." />
      <div className="tiles">
        {items.map((item) => (
          <Link key={item.href} href={item.href} className="card tile">
            <span className="tile-title">{item.label}</span>
            <span className="muted small">{item.description}</span>
          </Link>
        ))}
      </div>
    </>
  );
}

import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { can } from '@/components/console/permissions';
import { RealmDetail } from '@/components/console/realms/realm-detail';
import type { Realm } from '@/components/console/realms/types';
import { NoAccess } from '@/components/ui/page-header';
import { publicBase } from '@/lib/config/env';
import { getRealm } from '@/lib/domain/realms/read-realms';
import { toRealmDto } from '@/lib/domain/realms/realm-dto';
import { isAppError } from '@/lib/errors/app-error';
import { toWire } from '@/lib/web/casing';
import { pageContext, requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'Realm' };

type Props = { params: Promise<{ slug: string }> };

export default async function RealmPage({ params }: Props) {
  const user = await requirePageUser();
  if (!user.IsControlPlane) notFound();
  if (!can(user, 'realm:read', 'control-plane')) return <NoAccess what="realms" />;
  const { slug } = await params;
  let realm: Realm;
  try {
    // Read through the domain, as the API does; the browser shape is the API's (nulls omitted, ISO dates).
    realm = toWire(toRealmDto(await getRealm(await pageContext(), slug))) as Realm;
  } catch (e) {
    if (isAppError(e) && e.status === 404) notFound();
    throw e;
  }
  return (
    <LiveDetail resource="realm" id={realm.Id} thing="realm" listHref="/console/realms" listLabel="Realms">
      <RealmDetail
        initial={realm}
        publicBase={publicBase()}
        canWrite={can(user, 'realm:write', 'control-plane')}
        canTransfer={can(user, 'control-plane:realm:write', 'control-plane')}
      />
    </LiveDetail>
  );
}

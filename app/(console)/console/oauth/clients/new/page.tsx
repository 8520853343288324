import type { Metadata } from 'next';
import { NewClient } from '@/components/console/oauth/new-client';
import { can } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { positionTerminalsEnabled } from '@/lib/domain/positions/feature';
import { pageContext, requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New OAuth client' };

type Props = { searchParams: Promise<{ position?: string }> };

export default async function NewOAuthClientPage({ searchParams }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'oauth-client:write')) return <NoAccess what="OAuth client creation" />;
  // What else a new client may be (spec 4.7): a terminal while positions are on, a service account's client.
  const positions = can(user, 'position:write') && (await positionTerminalsEnabled((await pageContext()).realm));
  const intents = {
    positions,
    serviceAccounts: can(user, 'service-account:write'),
    canReadServiceAccounts: can(user, 'service-account:read'),
  };
  const { position } = await searchParams;
  return (
    <>
      <PageHeader back={{ href: '/console/oauth/clients', label: 'OAuth clients' }} title="New OAuth client" />
      <NewClient canReadScopes={can(user, 'oauth-scope:read')} intents={intents} presetPositionId={positions && position ? position : undefined} />
    </>
  );
}

import type { Metadata } from 'next';
import { can } from '@/components/console/permissions';
import { ScopeDetail } from '@/components/console/oauth/scope-detail';
import { NoAccess } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'OAuth scope' };

type Props = { params: Promise<{ id: string }> };

export default async function OAuthScopePage({ params }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'oauth-scope:read')) return <NoAccess what="OAuth scopes" />;
  const { id } = await params;
  return (
    <LiveDetail resource="oauth-scope" id={id} thing="OAuth scope" listHref="/console/oauth/scopes" listLabel="OAuth scopes">
      <ScopeDetail scopeId={id} canWrite={can(user, 'oauth-scope:write')} />
    </LiveDetail>
  );
}

import type { Metadata } from 'next';
import { ProviderDetail } from '@/components/console/login-providers/provider-detail';
import { can } from '@/components/console/permissions';
import { NoAccess } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';
import { LiveDetail } from '@/components/realtime/live-detail';

export const metadata: Metadata = { title: 'Login provider' };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function LoginProviderPage({ params, searchParams }: Props) {
  const user = await requirePageUser();
  if (!can(user, 'login-provider:read')) return <NoAccess what="login providers" />;
  const { id } = await params;
  const created = (await searchParams).created === '1';
  return (
    <LiveDetail resource="login-provider" id={id} thing="login provider" listHref="/console/login-providers" listLabel="Login providers">
      <ProviderDetail providerId={id} created={created} canWrite={can(user, 'login-provider:write')} canReadGroups={can(user, 'authorization-group:read')} />
    </LiveDetail>
  );
}

import type { Metadata } from 'next';
import { NewProvider } from '@/components/console/login-providers/new-provider';
import { can } from '@/components/console/permissions';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'New login provider' };

export default async function NewLoginProviderPage() {
  const user = await requirePageUser();
  if (!can(user, 'login-provider:write')) return <NoAccess what="login provider creation" />;
  return (
    <>
      <PageHeader back={{ href: '/console/login-providers', label: 'Login providers' }} title="New login provider" />
      <NewProvider canReadGroups={can(user, 'authorization-group:read')} />
    </>
  );
}

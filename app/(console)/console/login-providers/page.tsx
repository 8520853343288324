import type { Metadata } from 'next';
import Link from 'next/link';
import { ProviderList } from '@/components/console/login-providers/provider-list';
import { can } from '@/components/console/permissions';
import { buttonClass } from '@/components/ui/button';
import { NoAccess, PageHeader } from '@/components/ui/page-header';
import { requirePageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Login providers' };

export default async function LoginProvidersPage() {
  const user = await requirePageUser();
  if (!can(user, 'login-provider:read')) return <NoAccess what="login providers" />;
  return (
    <>
      <PageHeader
        title="Login providers"
        description="Corporate identity providers (OpenID Connect, SAML), directories (LDAP) and Windows domains (Kerberos) people can sign in with."
        actions={
          can(user, 'login-provider:write') ? (
            <Link href="/console/login-providers/new" className={buttonClass('primary')}>
              New login provider
            </Link>
          ) : null
        }
      />
      <ProviderList />
    </>
  );
}

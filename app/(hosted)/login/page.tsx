import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { HostedShell } from '@/components/hosted/hosted-shell';
import { LoginForm } from '@/components/hosted/login-form';
import { safeRedirect } from '@/components/hosted/safe-redirect';
import { pageContext, pageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Sign in' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// Password sign-in (spec 4.1). `?redirect=` is followed only to a relative path on this realm
// (safeRedirect); someone already signed in goes straight on.
export default async function LoginPage({ searchParams }: Props) {
  const target = safeRedirect((await searchParams).redirect);
  if (await pageUser()) redirect(target);
  const { realm } = await pageContext();
  return (
    <HostedShell realmName={realm.displayName} title="Sign in" subtitle={`Use your ${realm.displayName} account.`}>
      <LoginForm redirectTo={target} />
    </HostedShell>
  );
}

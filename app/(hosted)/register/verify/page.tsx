import type { Metadata } from 'next';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { IncompleteLink } from '@/components/hosted/incomplete-link';
import { param, type SearchParams } from '@/components/hosted/page-params';
import { RegisterVerify } from '@/components/hosted/register-form';
import { defaultContinuation, signInMethods } from '@/components/hosted/sign-in-methods';
import { appInfo } from '@/lib/domain/realms/app-info';
import { pageContext } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Confirm your e-mail address', referrer: 'no-referrer' };

// The registration mail's link: proving it creates the account and signs the person in.
export default async function RegisterVerifyPage({ searchParams }: { searchParams: SearchParams }) {
  const token = param((await searchParams).token);
  const ctx = await pageContext();
  const info = await appInfo(ctx);
  return (
    <HostedShell title="Finish creating your account">
      {token ? (
        <RegisterVerify token={token} methods={signInMethods(info)} fallback={defaultContinuation(ctx.realm)} />
      ) : (
        <IncompleteLink what="confirmation" />
      )}
    </HostedShell>
  );
}

import type { Metadata } from 'next';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { IncompleteLink } from '@/components/hosted/incomplete-link';
import { param, type SearchParams } from '@/components/hosted/page-params';
import { VerifyProfileEmail } from '@/components/hosted/token-action';

export const metadata: Metadata = { title: 'Confirm your new e-mail address', referrer: 'no-referrer' };

export default async function VerifyProfileEmailPage({ searchParams }: { searchParams: SearchParams }) {
  const token = param((await searchParams).token);
  return (
    <HostedShell title="Confirm your new e-mail address">{token ? <VerifyProfileEmail token={token} /> : <IncompleteLink what="confirmation" />}</HostedShell>
  );
}

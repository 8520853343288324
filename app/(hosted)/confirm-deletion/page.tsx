import type { Metadata } from 'next';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { ConfirmDeletion } from '@/components/hosted/confirm-deletion';
import { IncompleteLink } from '@/components/hosted/incomplete-link';
import { param, type SearchParams } from '@/components/hosted/page-params';

export const metadata: Metadata = { title: 'Delete your account', referrer: 'no-referrer' };

export default async function ConfirmDeletionPage({ searchParams }: { searchParams: SearchParams }) {
  const token = param((await searchParams).token);
  return <HostedShell title="Delete your account">{token ? <ConfirmDeletion token={token} /> : <IncompleteLink what="deletion" />}</HostedShell>;
}

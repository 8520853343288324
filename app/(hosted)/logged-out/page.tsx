import type { Metadata } from 'next';
import Link from 'next/link';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { buttonClass } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Signed out' };

export default async function LoggedOutPage() {
  return (
    <HostedShell title="You are signed out" subtitle="Your session on this device has ended.">
      <Link href="/login" className={buttonClass('primary', undefined, true)}>
        Sign in again
      </Link>
    </HostedShell>
  );
}

import type { Metadata } from 'next';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { param, type SearchParams } from '@/components/hosted/page-params';
import { ForgotPasswordForm } from '@/components/hosted/password-recovery';
import { safeRedirect } from '@/components/hosted/safe-redirect';

export const metadata: Metadata = { title: 'Forgot your password?' };

// Spec 4.1: the reset link is mailed; `?redirect=` travels with it to the sign-in after the reset.
export default async function ForgotPasswordPage({ searchParams }: { searchParams: SearchParams }) {
  const redirectTo = safeRedirect(param((await searchParams).redirect), '') || null;
  return (
    <HostedShell title="Forgot your password?" subtitle="Enter the e-mail address of your account and we will send you a link to choose a new password.">
      <ForgotPasswordForm redirectTo={redirectTo} />
    </HostedShell>
  );
}

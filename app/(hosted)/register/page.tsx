import type { Metadata } from 'next';
import Link from 'next/link';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { param, type SearchParams } from '@/components/hosted/page-params';
import { RegisterForm } from '@/components/hosted/register-form';
import { safeRedirect } from '@/components/hosted/safe-redirect';
import { Alert } from '@/components/ui/alert';
import { appInfo } from '@/lib/domain/realms/app-info';
import { selfRegistrationInfo } from '@/lib/domain/registration/registration-info';
import { pageContext } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Create an account' };

// Self-registration (spec 2.5, 4.1): the fields, invite code and password the realm asks for.
export default async function RegisterPage({ searchParams }: { searchParams: SearchParams }) {
  const redirectTo = safeRedirect(param((await searchParams).redirect), '') || null;
  const ctx = await pageContext();
  const [info, reg] = await Promise.all([appInfo(ctx), selfRegistrationInfo(ctx)]);
  const open = reg.Posture === 'ExplicitEndpoint';
  const password = info.SignIn.Password && !info.SignIn.PasswordlessOnly ? { minLength: reg.PasswordPolicy.MinLength } : null;
  return (
    <HostedShell title="Create an account" subtitle={open ? `Join ${ctx.realm.displayName}.` : undefined}>
      {open ? (
        <RegisterForm
          config={{
            fields: { Username: reg.RegistrationFields.Username, Firstname: reg.RegistrationFields.Firstname, Lastname: reg.RegistrationFields.Lastname },
            inviteCode: reg.RequireInviteCode,
            password,
          }}
          redirectTo={redirectTo}
        />
      ) : (
        <div className="stack">
          <Alert tone="info" title="Registration is not open">
            <p>Accounts here are created by an administrator{reg.Posture === 'JitOnOtp' ? ', or when you first sign in with a code e-mailed to you' : ''}.</p>
          </Alert>
          <Link href="/login" className="btn btn-block">
            Go to sign-in
          </Link>
        </div>
      )}
    </HostedShell>
  );
}

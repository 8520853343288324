import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { HostedShell } from '@/app/_shell/hosted-shell';
import { asExternalNotice } from '@/components/hosted/external-entry';
import { LoginForm, type LoginNotice } from '@/components/hosted/login-form';
import { loginHint } from '@/components/hosted/login-hint';
import type { LoginStep } from '@/components/hosted/login-outcome';
import { safeRedirect } from '@/components/hosted/safe-redirect';
import { signInMethods, defaultContinuation, externalEntryPoints } from '@/components/hosted/sign-in-methods';
import { readPendingCookie } from '@/lib/auth/pending-cookie';
import { listExternalLogins } from '@/lib/domain/external-sign-in/external-logins';
import { listKerberosEntryPoints } from '@/lib/domain/external-sign-in/kerberos-entry-points';
import { pendingSecondFactors } from '@/lib/domain/mfa/pending-sign-in';
import { appInfo } from '@/lib/domain/realms/app-info';
import { pageContext, pageUser } from '@/lib/http/page-context';

export const metadata: Metadata = { title: 'Sign in', referrer: 'no-referrer' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

// Sign-in (spec 4.1, 4.3, 5.5): every method the realm enables. `?redirect=` is followed only to a
// relative path on this realm (safeRedirect); someone already signed in goes straight on. The
// magic link's landing cases arrive as `?step=mfa`, `?step=secure-setup` and `?error=link-invalid`.
// `?reauth=1` comes from the OAuth engine (prompt=login, max_age, step-up): the form is shown even to
// someone signed in, because the client asked for a fresh sign-in. `?login_hint=` (the OIDC
// parameter, passed on by the engine too) prefills the user name when it looks like one.
// External providers (spec 4.5) are links that carry the same validated continuation as
// `returnUrl`; their failures come back as `?error=external-*`. Someone signed in who lands here
// with one was linking an account from /account, so the notice goes back there.
export default async function LoginPage({ searchParams }: Props) {
  const params = await searchParams;
  const ctx = await pageContext();
  const target = safeRedirect(params.redirect, defaultContinuation(ctx.realm));
  const externalNotice = asExternalNotice(first(params.error));
  if (first(params.reauth) !== '1' && (await pageUser())) redirect(externalNotice ? `/account?error=${externalNotice}#linked-accounts` : target);
  const info = await appInfo(ctx);
  const methods = signInMethods(info);
  const external = externalEntryPoints(await listExternalLogins(ctx), await listKerberosEntryPoints(ctx));

  let initialStep: LoginStep = { kind: 'start' };
  const step = first(params.step);
  if (step === 'mfa') {
    // Exactly the second factors the pending sign-in (the `gatehouse_mfa` cookie) can finish with:
    // those the account has enrolled and the realm enables, less the first factor's own mailbox.
    // Without a live pending sign-in the person starts again.
    const factors = await pendingSecondFactors(ctx, readPendingCookie((await cookies()).toString()));
    if (factors?.length) initialStep = { kind: 'two-factor', methods: factors };
  } else if (step === 'secure-setup') {
    initialStep = { kind: 'secure-setup-blocked' };
  }
  const notice: LoginNotice = first(params.error) === 'link-invalid' ? 'link-invalid' : externalNotice;

  return (
    <HostedShell title="Sign in" subtitle={`Use your ${ctx.realm.displayName} account.`}>
      <LoginForm redirectTo={target} methods={methods} external={external} initialStep={initialStep} notice={notice} loginHint={loginHint(params.login_hint)} />
    </HostedShell>
  );
}

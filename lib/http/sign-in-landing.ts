import { pendingLinkCookie } from '../auth/pending-link-cookie';
import type { SignInOutcome } from '../domain/auth/sign-in';
import type { ExternalSignInResult } from '../domain/external-sign-in/link-or-create';
import { isAppError } from '../errors/app-error';
import { applySignInOutcome } from './sign-in-response';

// Where a browser goes after a sign-in that arrived by navigation (a mailed link, an upstream's
// callback, a Kerberos challenge) rather than by the sign-in page's own requests.

function withContinuation(path: string, continuation: string | undefined): string {
  return continuation ? `${path}&redirect=${encodeURIComponent(continuation)}` : path;
}

/** The second step, the secure set-up, or the validated continuation (else the realm's start page). */
export function signInLanding(outcome: SignInOutcome, continuation: string | undefined): string {
  if (outcome.kind === 'second-factor') return withContinuation('/login?step=mfa', continuation);
  if (outcome.kind === 'setup-blocked') return withContinuation('/login?step=secure-setup', continuation);
  return continuation ?? '/';
}

/** A 302 to a path of this host: relative, so the browser stays on the host holding its (host-only) cookies. */
export function redirectTo(location: string, headers?: Headers): Response {
  const h = new Headers(headers);
  h.set('location', location);
  h.set('cache-control', 'no-store');
  h.set('referrer-policy', 'no-referrer');
  return new Response(null, { status: 302, headers: h });
}

/**
 * An external sign-in that failed, for a browser: back to the sign-in page with a fixed notice
 * (components/hosted/login-form.tsx); the reason is in the security log, never in the URL.
 */
export function externalFailureLanding(e: unknown): Response {
  if (!isAppError(e)) throw e;
  const notice =
    e.code === 'ExternalLogin.Unavailable'
      ? 'external-unavailable'
      : e.code === 'ExternalLogin.Refused' || e.code === 'ExternalLink.Taken'
        ? 'external-refused'
        : 'external-failed';
  return redirectTo(`/login?error=${notice}`);
}

/** Where the person confirms a link they asked for (app/(account)/account/link). */
export const LINK_CONFIRMATION_PATH = '/account/link';

/**
 * Signed in: the cookie and the next step; a link the person asked for: its confirmation page, the
 * pending link's key in a cookie; an identity they had linked already: back to the account page.
 */
export function externalSignInLanding(result: ExternalSignInResult, continuation: string | undefined, headers: Headers): Response {
  if (result.kind === 'link-pending') {
    headers.append('set-cookie', pendingLinkCookie(result.token));
    return redirectTo(LINK_CONFIRMATION_PATH);
  }
  if (result.kind === 'linked') return redirectTo(continuation ?? '/account#linked-accounts');
  applySignInOutcome(result.outcome, headers);
  return redirectTo(signInLanding(result.outcome, continuation));
}

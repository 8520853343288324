import type { SignInOutcome } from '../domain/auth/sign-in';

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

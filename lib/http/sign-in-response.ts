import { clearedPendingCookie, pendingCookie } from '../auth/pending-cookie';
import { sessionCookie } from '../auth/session-cookie';
import type { SignInOutcome } from '../domain/auth/sign-in';

/** Sets the cookie a sign-in outcome calls for and returns the body (spec 5.5 login outcomes). */
export function applySignInOutcome(outcome: SignInOutcome, headers: Headers): SignInOutcome['body'] {
  if (outcome.kind === 'session') {
    headers.append('set-cookie', sessionCookie(outcome.sessionToken));
    headers.append('set-cookie', clearedPendingCookie());
  } else {
    headers.append('set-cookie', pendingCookie(outcome.pendingToken));
  }
  return outcome.body;
}

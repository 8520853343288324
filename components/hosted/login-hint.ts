import { z } from 'zod';
import { param } from './page-params';

// OIDC `login_hint` (Core 3.1.2.1): the client's guess at who is signing in, which the engine's
// sign-in bridge passes on as `/login?login_hint=`. Anyone can put it in a link, so it only ever
// prefills the user-name field (as an input's value, which React never parses as markup), and only
// when it could be a user name or an e-mail address: the user-name rule (no whitespace or control
// characters) and at most 256 characters. Anything else (an opaque token, a phone number with
// spaces) is dropped rather than shown, so the person is not asked to correct what they never typed.
const LOGIN_HINT_MAX_LENGTH = 256;
const PLAUSIBLE = /^[^\s\p{C}]+$/u;
const email = z.email();

export function loginHint(raw: string | string[] | undefined): string | undefined {
  const hint = param(raw);
  if (!hint || hint.length > LOGIN_HINT_MAX_LENGTH || !PLAUSIBLE.test(hint)) return undefined;
  return hint;
}

/** Whether a hint can also start the e-mailed code and link forms. */
export function isEmailHint(hint: string | undefined): hint is string {
  return hint !== undefined && email.safeParse(hint).success;
}

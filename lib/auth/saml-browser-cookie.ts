import { parse, serialize } from 'cookie';
import { settings } from '../config/env';

// The browser's half of a SAML sign-in in flight: a random value also recorded with the AuthnRequest.
// The IdP posts the answer cross-site, so only a SameSite=None cookie comes back with it, and
// browsers keep those only when Secure: on https the ACS requires the match (an answer obtained in
// another browser cannot sign this one in: login CSRF); on plain http the one-time request id alone
// ties the answer to a request this realm sent.
const NAME = '__Host-gatehouse_saml';

export function samlBrowserBindingEnforced(): boolean {
  return settings().publicScheme === 'https';
}

export function readSamlBrowserCookie(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader || !samlBrowserBindingEnforced()) return undefined;
  const value = parse(cookieHeader)[NAME];
  return value && value.length <= 128 ? value : undefined;
}

/** Undefined on plain http, where no browser would send the cookie back with the IdP's post. */
export function samlBrowserCookie(value: string): string | undefined {
  if (!samlBrowserBindingEnforced()) return undefined;
  return serialize(NAME, value, { httpOnly: true, sameSite: 'none', secure: true, path: '/', maxAge: 60 * 60 });
}

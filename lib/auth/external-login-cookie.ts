import { parse, serialize } from 'cookie';
import { settings } from '../config/env';

// The browser's half of an OIDC sign-in in flight: the `state` it sent to the upstream. The callback
// is a top-level GET navigation, so SameSite=Lax carries it back; an answer arriving in a browser that
// did not start the sign-in finds no matching cookie and is refused. Ten minutes, like the flight.
function name(): string {
  return settings().publicScheme === 'https' ? '__Host-gatehouse_ext' : 'gatehouse_ext';
}

export function readExternalLoginCookie(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const value = parse(cookieHeader)[name()];
  return value && value.length <= 128 ? value : undefined;
}

export function externalLoginCookie(state: string): string {
  return serialize(name(), state, { httpOnly: true, sameSite: 'lax', secure: settings().publicScheme === 'https', path: '/', maxAge: 10 * 60 });
}

export function clearedExternalLoginCookie(): string {
  return serialize(name(), '', { httpOnly: true, sameSite: 'lax', secure: settings().publicScheme === 'https', path: '/', maxAge: 0 });
}

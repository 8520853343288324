import { parse, serialize } from 'cookie';
import { settings } from '../config/env';

// The short-lived cookie between a first factor and the second (CONTRACT.md): only the
// second-factor routes accept it. Same attributes as the session cookie, five-minute life.
function name(): string {
  return settings().publicScheme === 'https' ? '__Host-gatehouse_mfa' : 'gatehouse_mfa';
}

export function readPendingCookie(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const value = parse(cookieHeader)[name()];
  return value && value.length <= 128 ? value : undefined;
}

export function pendingCookie(token: string, maxAgeSeconds = 15 * 60): string {
  return serialize(name(), token, { httpOnly: true, sameSite: 'lax', secure: settings().publicScheme === 'https', path: '/', maxAge: maxAgeSeconds });
}

export function clearedPendingCookie(): string {
  return serialize(name(), '', { httpOnly: true, sameSite: 'lax', secure: settings().publicScheme === 'https', path: '/', maxAge: 0 });
}

import { parse, serialize } from 'cookie';
import { settings } from '../config/env';

// The browser-session cookie: an opaque random id, host-only (no Domain attribute) so a realm's
// cookie is never sent to another realm's host, HttpOnly, SameSite=Lax. On https it carries the
// __Host- prefix, which browsers enforce as Secure, Path=/ and host-only.
export const SESSION_TTL_SECONDS = 14 * 24 * 3600;

function sessionCookieName(): string {
  return settings().publicScheme === 'https' ? '__Host-gatehouse_session' : 'gatehouse_session';
}

export function readSessionCookie(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const value = parse(cookieHeader)[sessionCookieName()];
  return value && value.length <= 128 ? value : undefined;
}

export function sessionCookie(token: string, maxAgeSeconds = SESSION_TTL_SECONDS): string {
  return serialize(sessionCookieName(), token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings().publicScheme === 'https',
    path: '/',
    maxAge: maxAgeSeconds,
  });
}

export function clearedSessionCookie(): string {
  return serialize(sessionCookieName(), '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings().publicScheme === 'https',
    path: '/',
    maxAge: 0,
  });
}

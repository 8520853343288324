import { parse, serialize } from 'cookie';
import { settings } from '../config/env';

// The browser's key to an upstream identity waiting for its person's confirmation
// (lib/domain/external-sign-in/pending-link.ts): the one-time token, host-only, HttpOnly,
// SameSite=Lax (set by the top-level navigation that comes back from the upstream, sent by the
// confirmation page's same-origin requests), ten minutes like the pending link itself.
function name(): string {
  return settings().publicScheme === 'https' ? '__Host-gatehouse_link' : 'gatehouse_link';
}

export function readPendingLinkCookie(cookieHeader: string | null | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const value = parse(cookieHeader)[name()];
  return value && value.length <= 128 ? value : undefined;
}

export function pendingLinkCookie(token: string): string {
  return serialize(name(), token, { httpOnly: true, sameSite: 'lax', secure: settings().publicScheme === 'https', path: '/', maxAge: 10 * 60 });
}

export function clearedPendingLinkCookie(): string {
  return serialize(name(), '', { httpOnly: true, sameSite: 'lax', secure: settings().publicScheme === 'https', path: '/', maxAge: 0 });
}

import { publicOrigin, settings, type Settings } from '../config/env';
import { AppError } from '../errors/app-error';
import { normalizeHost } from '../realm/host';

// CSRF defence for cookie-authenticated writes. Session cookies are SameSite=Lax and host-only, but
// realms on sibling subdomains are "same-site" to each other, so SameSite alone is not enough:
// a browser request that changes state must come from the public origin of the host it targets.
// The whole origin is compared (scheme, host and port): `http://host:8080` or `https://host` is
// another origin than `http://host`, served by something else, and must not write here. The
// expected origin is the one Gatehouse writes for that host (GATEHOUSE_PUBLIC_SCHEME and
// GATEHOUSE_PUBLIC_PORT), so it holds behind a TLS-terminating proxy too. The host is one of the
// realm's domains: the caller resolved it to the realm before asking.
// Browsers send Origin on every POST/PUT/PATCH/DELETE (same-origin ones too) and Sec-Fetch-Site on
// all modern requests. A request that sends neither is not a browser's, so it carries no ambient
// cookie risk only when it carries no cookie: a bearer-token or anonymous client writes as before,
// but a cookie-authenticated write without either header is refused (issue 30 item 11), so an old
// or odd user agent that strips both cannot be led into a cross-site write.
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin a browser page of `hostHeader` has, or null when the Host header is not a host. */
export function expectedOrigin(hostHeader: string | null, s: Settings = settings()): string | null {
  const host = normalizeHost(hostHeader);
  return host ? publicOrigin(host, s) : null;
}

/** The origin an Origin header names (scheme, host and port; a default port dropped), or null. */
function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

export function assertSameOrigin(request: Request, s: Settings = settings()): void {
  if (SAFE.has(request.method)) return;
  if (!isSameOriginRequest((name) => request.headers.get(name), s)) throw new AppError('Request.CsrfRejected');
}

/**
 * The check of `assertSameOrigin` for any request that could change state, given its headers (the
 * real-time hub checks its WebSocket upgrades with it too: a cross-site page may open a WebSocket).
 */
export function isSameOriginRequest(header: (name: string) => string | null | undefined, s: Settings = settings()): boolean {
  const origin = header('origin');
  if (origin !== null && origin !== undefined) {
    const expected = expectedOrigin(header('host') ?? null, s);
    return !!expected && originOf(origin) === expected;
  }
  const site = header('sec-fetch-site');
  if (site === null || site === undefined) return !carriesCookie(header('cookie'));
  return site === 'same-origin' || site === 'none';
}

/** Whether a Cookie header names any cookie: the session's, a sign-in's or an interaction's all carry authority. */
function carriesCookie(cookieHeader: string | null | undefined): boolean {
  return !!cookieHeader && cookieHeader.split(';').some((pair) => pair.trim() !== '');
}

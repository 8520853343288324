import type { JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { realmFetchOn } from '../../shared/realm-fetch';
import { api, type CookieJar, suite } from './harness';

// A real relying party (openid-client) against a realm. Node cannot resolve *.localhost, so its
// fetch connects to 127.0.0.1 and names the realm in the Host header, as every HTTP test does.

export function realmFetch(port = suite().port): oidc.CustomFetch {
  return realmFetchOn(port);
}

export function issuerOf(host: string): string {
  return `http://${host}`;
}

/** openid-client's configuration for a client of the realm at `host` (discovery included). */
export async function discover(host: string, clientId: string, clientSecret?: string, auth?: oidc.ClientAuth): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(issuerOf(host)), clientId, clientSecret, auth ?? (clientSecret ? undefined : oidc.None()), {
    execute: [oidc.allowInsecureRequests],
    [oidc.customFetch]: realmFetch(),
  });
}

export type BrowserResult = { location: URL; hops: string[] };

/**
 * Follows the engine's redirects like a browser holding `jar`, until the answer sends it away from
 * the realm (to the client's redirect URI) or stops redirecting. Stops early at a path the caller
 * wants to handle (a sign-in or consent page).
 */
export async function followAsBrowser(host: string, start: string, jar: CookieJar, stopAt?: RegExp): Promise<BrowserResult> {
  const hops: string[] = [];
  let url = new URL(start, issuerOf(host));
  for (let i = 0; i < 15; i++) {
    hops.push(url.pathname);
    if (url.host !== host) return { location: url, hops };
    if (stopAt && i > 0 && stopAt.test(url.pathname)) return { location: url, hops };
    const res = await api(host, 'GET', url.pathname + url.search, { cookie: jar, headers: { accept: 'text/html' } });
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || !location) return { location: url, hops: [...hops, `${res.status}`] };
    url = new URL(location, url);
  }
  throw new Error(`too many redirects: ${hops.join(' -> ')}`);
}

export async function createClient(
  host: string,
  jar: CookieJar,
  body: Record<string, unknown>,
): Promise<{ ClientId: string; ClientSecret?: string; Id: string }> {
  const res = await api(host, 'POST', '/api/admin/oauth/clients', { cookie: jar, body });
  if (res.status !== 201) throw new Error(`client create answered ${res.status}: ${res.text}`);
  return res.body;
}

/** The realm's published signing keys. */
export async function fetchJwks(host: string): Promise<JSONWebKeySet> {
  const res = await api(host, 'GET', '/.well-known/jwks');
  if (res.status !== 200) throw new Error(`jwks answered ${res.status}: ${res.text}`);
  return res.body as JSONWebKeySet;
}

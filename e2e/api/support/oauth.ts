import { request } from 'node:http';
import type { JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { api, CookieJar, suite } from './harness';

// A real relying party (openid-client) against a realm. Node cannot resolve *.localhost, so its
// fetch connects to 127.0.0.1 and names the realm in the Host header, as every HTTP test does.

export function realmFetch(port = suite().port): oidc.CustomFetch {
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const headers: Record<string, string> = { host: target.host };
      new Headers(options.headers).forEach((v, k) => (headers[k] = v));
      const body = options.body === undefined || options.body === null ? undefined : typeof options.body === 'string' ? options.body : options.body.toString();
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const req = request({ host: '127.0.0.1', port, method: options.method, path: target.pathname + target.search, headers, setHost: false, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const h = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (Array.isArray(v)) v.forEach((x) => h.append(k, x));
            else if (v !== undefined) h.set(k, String(v));
          }
          const status = res.statusCode ?? 0;
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: h }));
        });
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
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

export async function createClient(host: string, jar: CookieJar, body: Record<string, unknown>): Promise<{ ClientId: string; ClientSecret?: string; Id: string }> {
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

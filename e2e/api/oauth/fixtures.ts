import { createLocalJWKSet, jwtVerify, type JWTPayload, type JWTVerifyResult } from 'jose';
import * as oidc from 'openid-client';
import { api, bootstrapAdmin, createRealm, type ApiResponse, type CookieJar, type SignedIn } from '../support/harness';
import { fetchJwks, issuerOf, realmFetch } from '../support/oauth';

// Shared by the engine tests beside this file: a realm with its administrator, openid-client
// configurations for confidential and public clients, JWT checks against the realm's JWKS, and a
// tiny HTML form reader for the pages the engine renders itself (device code, logout).

export { MANAGEMENT_AUDIENCE } from '../oauth-admin/fixtures';
export const MANAGEMENT_SCOPE = 'gatehouse.management';
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export type OAuthRealm = { host: string; slug: string; admin: SignedIn };

export async function oauthRealm(): Promise<OAuthRealm> {
  const { host, slug } = await createRealm();
  const admin = await bootstrapAdmin(slug);
  return { host, slug, admin };
}

const rpOptions = () => ({ execute: [oidc.allowInsecureRequests], [oidc.customFetch]: realmFetch() });

/**
 * openid-client's configuration for a client, authenticating with client_secret_basic (the method
 * the admin API registers) when a secret is given, else as a public client.
 */
export function rp(host: string, clientId: string, clientSecret?: string): Promise<oidc.Configuration> {
  const auth = clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(clientSecret);
  return oidc.discovery(new URL(issuerOf(host)), clientId, undefined, auth, rpOptions());
}

export type OAuthFailure = { error: string; description?: string; status: number };

/**
 * How a failed openid-client call failed: from the JSON body (ResponseBodyError), or from the
 * WWW-Authenticate challenge the engine sends with a 401 to a client that used HTTP Basic.
 */
export async function oauthFailure(call: Promise<unknown>): Promise<OAuthFailure> {
  try {
    await call;
  } catch (e) {
    if (e instanceof oidc.ResponseBodyError) return { error: e.error, description: e.error_description, status: e.status };
    if (e instanceof oidc.WWWAuthenticateChallengeError) {
      const p = e.cause[0]?.parameters ?? {};
      return { error: String(p.error), description: p.error_description, status: e.status };
    }
    throw e;
  }
  throw new Error('the call succeeded; an OAuth error was expected');
}

/** The OAuth error code of a failed openid-client call. */
export async function oauthError(call: Promise<unknown>): Promise<string> {
  return (await oauthFailure(call)).error;
}

/** The JWT verified against the realm's published keys, with the realm as issuer. */
export async function verifyJwt(host: string, jwt: string, audience: string): Promise<JWTVerifyResult<JWTPayload>> {
  return jwtVerify(jwt, createLocalJWKSet(await fetchJwks(host)), { issuer: issuerOf(host), audience });
}

/** Whether a value looks like a compact JWS (three base64url parts). */
export function isJwt(value: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]+$/.test(value);
}

export type HtmlForm = { action: string; method: string; fields: Record<string, string> };

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
  return m ? decode(m[1]) : undefined;
}

/** The form with `id` (or the first form) of an engine page: its action, method and named inputs with a value. */
export function formIn(html: string, id?: string): HtmlForm {
  for (const m of html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/gi)) {
    const open = m[0].slice(0, m[0].indexOf('>') + 1);
    if (id !== undefined && attr(open, 'id') !== id) continue;
    const fields: Record<string, string> = {};
    for (const input of m[1].matchAll(/<input\b[^>]*>/gi)) {
      const name = attr(input[0], 'name');
      const value = attr(input[0], 'value');
      if (name !== undefined && value !== undefined) fields[name] = value;
    }
    return { action: attr(open, 'action') ?? '', method: (attr(open, 'method') ?? 'get').toLowerCase(), fields };
  }
  throw new Error(`no form${id ? ` #${id}` : ''} in: ${html.slice(0, 500)}`);
}

/** Submits an engine form as a browser would (urlencoded, the jar's cookies), `extra` added. */
export function submit(host: string, jar: CookieJar, form: HtmlForm, extra: Record<string, string> = {}): Promise<ApiResponse> {
  const action = new URL(form.action, issuerOf(host));
  return api(host, 'POST', action.pathname + action.search, {
    cookie: jar,
    rawBody: new URLSearchParams({ ...form.fields, ...extra }).toString(),
    contentType: 'application/x-www-form-urlencoded',
    headers: { accept: 'text/html' },
  });
}

export type Page = { res: ApiResponse; url: URL; hops: string[] };

/**
 * Like followAsBrowser, but keeps the answer that ended the walk (a page the engine rendered, or
 * the redirect that leaves the realm), since some pages can be fetched only once.
 */
export async function browse(host: string, start: string, jar: CookieJar): Promise<Page> {
  const hops: string[] = [];
  let url = new URL(start, issuerOf(host));
  for (let i = 0; i < 15; i++) {
    hops.push(url.pathname);
    const res = await api(host, 'GET', url.pathname + url.search, { cookie: jar, headers: { accept: 'text/html' } });
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || !location) return { res, url, hops };
    const next = new URL(location, url);
    if (next.host !== host) return { res, url: next, hops };
    url = next;
  }
  throw new Error(`too many redirects: ${hops.join(' -> ')}`);
}

export const REDIRECT = 'http://127.0.0.1:9/callback';
export const POST_LOGOUT = 'http://127.0.0.1:9/signed-out';

/** A confidential web client with the usual code-flow setup; `extra` overrides. */
export function webClientBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    DisplayName: 'Web app',
    ClientType: 'Confidential',
    ConsentType: 'Implicit',
    RedirectUris: [REDIRECT],
    PostLogoutRedirectUris: [POST_LOGOUT],
    GrantTypes: ['authorization_code', 'refresh_token'],
    Scopes: ['openid', 'profile', 'email', 'offline_access'],
    ...extra,
  };
}

export type Authorized = { callback: URL; verifier: string; state: string; page: Page };

/**
 * /connect/authorize with PKCE in the browser holding `jar`, walked until it leaves the realm. The
 * engine grants offline_access only with prompt=consent (OIDC Core 11), so that is asked for too.
 */
export async function authorize(
  host: string,
  config: oidc.Configuration,
  jar: CookieJar,
  scope: string,
  params: Record<string, string> = {},
): Promise<Authorized> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...(scope.split(' ').includes('offline_access') ? { prompt: 'consent' } : {}),
    ...params,
  });
  const page = await browse(host, url.pathname + url.search, jar);
  return { callback: page.url, verifier, state, page };
}

/** A signed-in browser's way through the code flow to tokens. */
export async function codeFlowTokens(host: string, config: oidc.Configuration, jar: CookieJar, scope: string) {
  const a = await authorize(host, config, jar, scope);
  if (a.callback.origin + a.callback.pathname !== REDIRECT)
    throw new Error(`the code flow ended at ${a.callback.href} (${a.page.hops.join(' -> ')}): ${a.page.res.text.slice(0, 300)}`);
  return oidc.authorizationCodeGrant(config, a.callback, { pkceCodeVerifier: a.verifier, expectedState: a.state });
}

/** GET /connect/userinfo with a bearer token, raw (the status is what the tests look at). */
export function userinfo(host: string, accessToken: string): Promise<ApiResponse> {
  return api(host, 'GET', '/connect/userinfo', { headers: { authorization: `Bearer ${accessToken}` } });
}

/**
 * A timestamp `deltaMs` away from `sample` (a DateTime column as the driver returned it), in the
 * same form: a Date for PostgreSQL, the ISO text the SQLite adapter writes for SQLite. Used to put
 * an expiry far enough in the past that the engine's clock tolerance (15 s) does not cover it.
 */
export function shiftedLike(sample: unknown, deltaMs: number): Date | string {
  if (sample instanceof Date) return new Date(sample.getTime() + deltaMs);
  const text = String(sample);
  const iso = new Date(Date.parse(text) + deltaMs).toISOString();
  return text.endsWith('Z') ? iso : iso.replace(/Z$/, '+00:00');
}

/**
 * The code flow for scopes the person must approve on the hosted consent page (Gatehouse's own
 * scopes always are, issue 8 item 4): walks to /consent, checks the page was asked, confirms the
 * way its form does, and redeems the code. `params` are extra authorization parameters;
 * `grant` passes options to the code's redemption (a DPoP handle, for a key-bound token).
 */
export async function consentedTokens(
  host: string,
  config: oidc.Configuration,
  jar: CookieJar,
  scope: string,
  params: Record<string, string> = {},
  grant?: oidc.DPoPOptions,
) {
  const a = await authorize(host, config, jar, scope, params);
  if (a.callback.pathname !== '/consent') throw new Error(`expected the consent page, got ${a.callback.href} (${a.page.hops.join(' -> ')})`);
  const uid = a.callback.searchParams.get('uid')!;
  const confirmed = await api(host, 'POST', `/connect/interaction/${uid}/confirm`, { cookie: jar, headers: { origin: issuerOf(host), accept: 'text/html' } });
  if (confirmed.status < 300 || confirmed.status >= 400) throw new Error(`consent confirm answered ${confirmed.status}: ${confirmed.text.slice(0, 300)}`);
  const back = await browse(host, confirmed.headers.location!, jar);
  if (back.url.origin + back.url.pathname !== REDIRECT) throw new Error(`the code flow ended at ${back.url.href} (${back.hops.join(' -> ')})`);
  return oidc.authorizationCodeGrant(config, back.url, { pkceCodeVerifier: a.verifier, expectedState: a.state }, undefined, grant);
}

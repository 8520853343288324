import { randomBytes } from 'node:crypto';
import { expect, inject } from 'vitest';
import { lastLine, runCli } from './cli';
import { CookieJar, sendRequest, type ApiOptions, type ApiResponse } from './http';
import type { SuiteInfo } from './types';

// What the test files use: the running server (from the global setup), `api()`, and fixtures that
// make realms and administrators through the product's own surfaces (HTTP and the CLI).

export { CookieJar } from './http';
export type { ApiOptions, ApiResponse } from './http';

export function suite(): SuiteInfo {
  return inject('gatehouse');
}

/** The control plane's host (GATEHOUSE_CONTROL_PLANE_DOMAINS defaults to localhost,127.0.0.1). */
export const CP_HOST = 'localhost';

/** `host` as a browser would send it to the main server: with the port. */
export function hostHeader(domain: string, port = suite().port): string {
  return `${domain}:${port}`;
}

/** One request to the main server (or `options.port`), with `Host: host`. */
export function api<T = any>(host: string, method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse<T>> {
  return sendRequest<T>(options.port ?? suite().port, host, method, path, options);
}

/** The control-plane administrator's session (signed in once by the global setup). */
export function adminCookie(): string {
  return suite().adminCookie;
}

/** A slug no other test (or run) uses: `<prefix>-<10 hex>`. */
export function uniqueSlug(prefix = 't'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

/** The default test domain of a realm: `<slug>.localhost`. */
export function realmDomain(slug: string): string {
  return `${slug}.localhost`;
}

export type RealmInput = {
  Slug: string;
  DisplayName?: string;
  Description?: string;
  Domains?: string[];
  InitialAdmin?: { UserName: string; Email: string; Firstname?: string; Lastname?: string };
};

/** POST /api/admin/realms on the control plane as its administrator; the answer is returned as is. */
export function postRealm(input: RealmInput, options: { cookie?: string; port?: number; host?: string } = {}): Promise<ApiResponse> {
  const body = { DisplayName: `Realm ${input.Slug}`, Domains: [realmDomain(input.Slug)], ...input };
  return api(options.host ?? CP_HOST, 'POST', '/api/admin/realms', { body, cookie: options.cookie ?? adminCookie(), port: options.port });
}

export type CreatedRealm = { slug: string; domain: string; host: string; body: any };

/** Creates a realm and insists on 201. */
export async function createRealm(input: Partial<RealmInput> = {}, options: { cookie?: string; port?: number; host?: string } = {}): Promise<CreatedRealm> {
  const slug = input.Slug ?? uniqueSlug();
  const res = await postRealm({ ...input, Slug: slug }, options);
  if (res.status !== 201) throw new Error(`creating realm ${slug} answered ${res.status}: ${res.text}`);
  const domain: string = res.body.Realm.PrimaryDomain;
  return { slug, domain, host: hostHeader(domain, options.port), body: res.body };
}

/** `gatehouse recover bootstrap-admin` for a realm (default: the control plane); returns the invite URL. */
export async function cliInvite(opts: { realm?: string; email: string; userName?: string; env?: Record<string, string> }): Promise<URL> {
  const args = ['recover', 'bootstrap-admin', '--email', opts.email];
  if (opts.userName) args.push('--username', opts.userName);
  if (opts.realm) args.push('--realm', opts.realm);
  const r = await runCli(opts.env ?? suite().env, args);
  if (r.code !== 0) throw new Error(`gatehouse ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return new URL(lastLine(r.stdout));
}

export type SignedIn = { jar: CookieJar; host: string; userName: string; password: string; email: string; userId?: string };

export function strongPassword(): string {
  return `Pw-${randomBytes(9).toString('base64url')}`;
}

/**
 * A realm's first administrator through the real flow: the CLI prints the invite URL, the token is
 * redeemed at POST /api/account/bootstrap-admin on the URL's host, the session cookie is kept.
 */
export async function bootstrapAdmin(realmSlug?: string, opts: { port?: number; env?: Record<string, string>; userName?: string } = {}): Promise<SignedIn> {
  const tag = randomBytes(4).toString('hex');
  const userName = opts.userName ?? `admin-${tag}`;
  const email = `${userName}@example.test`;
  const url = await cliInvite({ realm: realmSlug, email, userName, env: opts.env });
  const token = url.searchParams.get('token');
  if (!token) throw new Error(`no token in the invite URL ${url.href}`);
  const password = strongPassword();
  const jar = new CookieJar();
  const host = url.host;
  const res = await api(host, 'POST', '/api/account/bootstrap-admin', { body: { Token: token, Password: password }, cookie: jar, port: opts.port });
  if (res.status !== 200) throw new Error(`bootstrap-admin on ${host} answered ${res.status}: ${res.text}`);
  return { jar, host, userName, password, email, userId: res.body.userId };
}

/** A new realm and its first administrator, signed in: the set-up most test files start from. */
export async function realmWithAdmin(input: Partial<RealmInput> = {}): Promise<CreatedRealm & { admin: SignedIn }> {
  const realm = await createRealm(input);
  return { ...realm, admin: await bootstrapAdmin(realm.slug) };
}

/** Password sign-in; returns the response and a jar holding the session cookie. */
export async function signIn(host: string, userName: string, password: string, port?: number): Promise<{ res: ApiResponse; jar: CookieJar }> {
  const jar = new CookieJar();
  const res = await api(host, 'POST', '/api/account/login', { body: { UserName: userName, Password: password }, cookie: jar, port });
  return { res, jar };
}

/** Retries `check` until it stops throwing (events are written to the logs after commit). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Asserts an RFC 7807 answer: the status, the problem+json content type, `code` when given (null:
 * must have none), and that nothing internal (stack traces, file paths) leaked.
 */
export function expectProblem(res: ApiResponse, status: number, code?: string | null): void {
  expect(res.status, `${res.status} ${res.text}`).toBe(status);
  expect(res.contentType).toMatch(/^application\/problem\+json/);
  expect(res.body).toBeTypeOf('object');
  expect(res.body.status).toBe(status);
  expect(typeof res.body.title).toBe('string');
  expect(typeof res.body.type).toBe('string');
  if (code === null) expect(res.body.code).toBeUndefined();
  else if (code !== undefined) expect(res.body.code).toBe(code);
  expectNoLeak(res);
}

/** No stack trace, source path or driver message in a body. */
export function expectNoLeak(res: ApiResponse): void {
  // Stack frames ("at fn (file:1:2)"), source positions, server paths, driver and ORM messages.
  expect(res.text).not.toMatch(
    /\n\s+at |\bat [\w$.<>]+ \([^)]*:\d+:\d+\)|\.(?:ts|tsx|js|mjs|cjs):\d+:\d+|node_modules\/|\/work\/|PrismaClient|Invalid `prisma|SQLITE_[A-Z]|"stack"\s*:/,
  );
}

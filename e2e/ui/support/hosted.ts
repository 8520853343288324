import { expect, request as playwrightRequest, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { ensureAdmin, gatehouse, PORT, uniqueSuffix, urlOn } from './env';
import { TotpDevice } from '../../shared/totp-device';

// Helpers of the hosted sign-in specs (hosted-*.spec.ts): users made over the API, realms on
// `<slug>.localhost`, realm settings, a TOTP device and a CDP virtual authenticator.

export const CP_ADMIN = { userName: 'hosted-admin', password: 'Quiet-lantern-7291!' };

/** Source ceilings high enough that one spec file's own traffic from 127.0.0.1 never trips them. */
export const ROOMY_SOURCE_LIMITS = Object.fromEntries(
  [
    'login',
    'mfa-login',
    'email-otp-request',
    'email-otp-login',
    'magic-link-request',
    'magic-link-login',
    'passkey-login',
    'forgot-password',
    'reset-password',
    'register',
    'register-verify',
  ].map((p) => [p, { Source: { Points: 10_000, DurationSeconds: 60 } }]),
);

export function strongPassword(): string {
  return `Pw-${uniqueSuffix()}-Kx9!`;
}

// An API context writes with its session cookie the way a page's same-origin fetch does: the
// server refuses cookie-carrying writes that send neither Origin nor Sec-Fetch-Site (lib/web/csrf.ts).
const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };

async function ok(res: { ok(): boolean; status(): number; text(): Promise<string> }, what: string): Promise<void> {
  if (!res.ok()) throw new Error(`${what} answered ${res.status()}: ${await res.text()}`);
}

/** A request context signed in as the control plane's administrator (its own cookie jar). */
export async function controlPlaneAdmin(): Promise<APIRequestContext> {
  await ensureAdmin(CP_ADMIN.userName, CP_ADMIN.password);
  const request = await playwrightRequest.newContext({ baseURL: urlOn('localhost'), extraHTTPHeaders: SAME_ORIGIN });
  await ok(await request.post('/api/account/login', { data: { UserName: CP_ADMIN.userName, Password: CP_ADMIN.password } }), 'admin login');
  return request;
}

/**
 * The set-up most hosted-page specs share: the control plane's administrator as an API context for
 * the file (disposed after it) and quiet development reloads in every test's browser context.
 * Registers the hooks; answers the context, available from the first test on.
 */
export function useControlPlaneAdmin(): () => APIRequestContext {
  let admin: APIRequestContext | undefined;
  test.beforeAll(async () => {
    admin = await controlPlaneAdmin();
  });
  test.afterAll(async () => {
    await admin?.dispose();
  });
  test.beforeEach(async ({ context }) => {
    await quietDevReloads(context);
  });
  return () => {
    if (!admin) throw new Error('the control-plane administrator is set up in beforeAll');
    return admin;
  };
}

export type TestUser = { userName: string; email: string; password: string; id: string };

/** A request context of its own (cookie jar) on the control plane, signed in as `user`. */
export async function signedInRequest(user: { userName: string; password: string }): Promise<APIRequestContext> {
  const request = await playwrightRequest.newContext({ baseURL: urlOn('localhost'), extraHTTPHeaders: SAME_ORIGIN });
  await ok(await request.post('/api/account/login', { data: { UserName: user.userName, Password: user.password } }), 'login');
  return request;
}

/** A user of the control plane with a password and a confirmed address (POST /api/user). */
export async function createUser(admin: APIRequestContext, prefix: string, options: { emailConfirmed?: boolean } = {}): Promise<TestUser> {
  const userName = `${prefix}-${uniqueSuffix()}`;
  const email = `${userName}@example.test`;
  const password = strongPassword();
  const res = await admin.post('/api/user', {
    data: { UserName: userName, Email: email, Password: password, EmailConfirmed: options.emailConfirmed ?? true, IsActive: true },
  });
  await ok(res, 'POST /api/user');
  const body = (await res.json()) as { Id: string };
  return { userName, email, password, id: body.Id };
}

/** PATCH /api/realm-settings with the given request context (an administrator of that realm). */
export async function patchSettings(admin: APIRequestContext, patch: Record<string, unknown>): Promise<void> {
  await ok(await admin.patch('/api/realm-settings', { data: patch }), 'PATCH /api/realm-settings');
}

export type TestRealm = { slug: string; host: string; origin: string; admin: TestUser };

/**
 * A realm on `<slug>.localhost` with an administrator who has a password (the recovery CLI). Node
 * does not resolve `*.localhost`, so requests to it go from a browser page (realmFetch).
 */
export async function createRealm(cpAdmin: APIRequestContext, prefix = 'hr'): Promise<TestRealm> {
  const slug = `${prefix}${uniqueSuffix()}`.toLowerCase().slice(0, 30);
  const host = `${slug}.localhost`;
  await ok(await cpAdmin.post('/api/admin/realms', { data: { Slug: slug, DisplayName: `Realm ${slug}`, Domains: [host] } }), 'POST /api/admin/realms');
  const userName = `admin-${uniqueSuffix()}`;
  const admin = { userName, email: `${userName}@example.test`, password: strongPassword(), id: '' };
  await gatehouse('recover', 'bootstrap-admin', '--realm', slug, '--email', admin.email, '--username', userName, '--password', admin.password);
  return { slug, host, origin: `http://${host}:${PORT}`, admin };
}

export type FetchResult = { status: number; body: unknown };

/** fetch() from the page (same origin as the page, its cookies): JSON in, JSON out. */
export async function pageFetch(page: Page, method: string, path: string, body?: unknown): Promise<FetchResult> {
  // The development server may reload a freshly compiled page once: wait for it and try again.
  for (let attempt = 0; ; attempt++) {
    await page.waitForLoadState('load');
    try {
      return await evaluateFetch(page, method, path, body);
    } catch (e) {
      if (attempt >= 3 || !/Execution context was destroyed|navigat/i.test(String(e))) throw e;
      await page.waitForTimeout(500);
    }
  }
}

function evaluateFetch(page: Page, method: string, path: string, body?: unknown): Promise<FetchResult> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed };
    },
    { method, path, body },
  );
}

/**
 * A request context signed in as the realm's administrator. Node does not resolve `*.localhost`:
 * it connects to 127.0.0.1 and names the realm in the Host header (docs/environment.md).
 */
export async function realmAdmin(realm: TestRealm): Promise<APIRequestContext> {
  const request = await playwrightRequest.newContext({
    baseURL: `http://127.0.0.1:${PORT}`,
    extraHTTPHeaders: { host: `${realm.host}:${PORT}`, ...SAME_ORIGIN },
  });
  await ok(await request.post('/api/account/login', { data: { UserName: realm.admin.userName, Password: realm.admin.password } }), 'realm admin login');
  return request;
}

/** A user of the realm with a password and a confirmed address, made by its administrator. */
export async function createRealmUser(realm: TestRealm, prefix: string): Promise<TestUser> {
  const request = await realmAdmin(realm);
  try {
    return await createUser(request, prefix);
  } finally {
    await request.dispose();
  }
}

/** PATCH /api/realm-settings of the realm as its administrator. */
export async function patchRealmSettings(realm: TestRealm, patch: Record<string, unknown>): Promise<void> {
  const request = await realmAdmin(realm);
  try {
    await patchSettings(request, patch);
  } finally {
    await request.dispose();
  }
}

/** Turns TOTP on for the user whose session `request` holds (setup, then verify with a code). */
export async function enrolTotp(request: APIRequestContext): Promise<TotpDevice> {
  const setup = await request.post('/api/account/mfa/setup', { data: {} });
  await ok(setup, 'mfa/setup');
  const device = new TotpDevice(((await setup.json()) as { SharedKey: string }).SharedKey);
  await ok(await request.post('/api/account/mfa/verify', { data: { Code: await device.code() } }), 'mfa/verify');
  return device;
}

/** Chromium's virtual authenticator (CDP): a platform authenticator with resident keys and UV. */
export async function addVirtualAuthenticator(page: Page): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return async () => {
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    await cdp.detach();
  };
}

/**
 * Registers a passkey for the signed-in user from the page (register-options, then
 * navigator.credentials.create, then register), as @simplewebauthn/browser would; the base64url
 * conversions are done by hand because the page has no module loader for the test.
 */
export async function registerPasskeyInPage(page: Page, displayName = 'Test passkey'): Promise<void> {
  const result = await page.evaluate(async (displayName) => {
    const b64ToBuf = (s: string) => {
      const b = atob(
        s
          .replace(/-/g, '+')
          .replace(/_/g, '/')
          .padEnd(Math.ceil(s.length / 4) * 4, '='),
      );
      return Uint8Array.from(b, (c) => c.charCodeAt(0)).buffer;
    };
    const bufToB64 = (buf: ArrayBuffer) =>
      btoa(String.fromCharCode(...new Uint8Array(buf)))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
    const post = async (path: string, body: unknown) => {
      const res = await fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => null) };
    };
    const opts = await post('/api/account/passkey/register-options', { DisplayName: displayName });
    if (opts.status !== 200) return { step: 'options', ...opts };
    const o = opts.body;
    const publicKey: PublicKeyCredentialCreationOptions = {
      ...o,
      challenge: b64ToBuf(o.challenge),
      user: { ...o.user, id: b64ToBuf(o.user.id) },
      excludeCredentials: (o.excludeCredentials ?? []).map((c: any) => ({ ...c, id: b64ToBuf(c.id) })),
    };
    const cred = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential;
    const r = cred.response as AuthenticatorAttestationResponse;
    const reg = await post('/api/account/passkey/register', {
      id: cred.id,
      rawId: bufToB64(cred.rawId),
      type: cred.type,
      response: { clientDataJSON: bufToB64(r.clientDataJSON), attestationObject: bufToB64(r.attestationObject), transports: r.getTransports?.() ?? [] },
      authenticatorAttachment: cred.authenticatorAttachment ?? undefined,
      clientExtensionResults: cred.getClientExtensionResults(),
      DisplayName: displayName,
    });
    return { step: 'register', ...reg };
  }, displayName);
  expect(result, JSON.stringify(result)).toMatchObject({ step: 'register', status: 200 });
}

/** The session of the browser context answers GET /api/account/me with this user. */
export async function expectSignedInAs(page: Page, userName: string): Promise<void> {
  const me = await pageFetch(page, 'GET', '/api/account/me');
  expect(me.status).toBe(200);
  expect(JSON.stringify(me.body)).toContain(userName);
}

/**
 * Signs the page's browser out by dropping its cookies, after leaving the page it is on: a signed-in
 * page that finds itself signed out sends itself to /login, and that navigation would race (and
 * abort) the test's next one.
 */
export async function leaveAndSignOut(page: Page): Promise<void> {
  await page.goto('about:blank');
  await page.context().clearCookies();
}

/**
 * In development mode other people's edits in the tree make Next's HMR client refresh or reload the
 * page mid-test (a form's state is lost). The HMR socket still connects (the client needs it to
 * start), but the update and reload messages are dropped, so a page stays as it was loaded.
 */
const RELOADING = new Set([
  'reloadPage',
  'serverComponentChanges',
  'staticParamsChanged',
  'turbopack-message',
  'addedPage',
  'removedPage',
  'clientChanges',
  'serverOnlyChanges',
  'middlewareChanges',
]);

export async function quietDevReloads(context: BrowserContext): Promise<void> {
  await context.routeWebSocket(/\/_next\/.*hmr/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      if (typeof m === 'string') {
        try {
          const msg = JSON.parse(m) as { type?: string; action?: string };
          if (RELOADING.has(msg.type ?? msg.action ?? '')) return;
        } catch {
          /* not JSON: pass it on */
        }
      }
      ws.send(m);
    });
  });
}

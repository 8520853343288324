import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { signIn, watchConsole } from './support/env';
import { controlPlaneAdmin, createRealm, createRealmUser, quietDevReloads, type TestRealm, type TestUser } from './support/hosted';
import { authorizeRequest, createOAuthClient, discoverPublicClient, startCallbackServer, type AuthorizeRequest, type CallbackServer } from './support/oauth';

// What the client may say about the sign-in (OIDC Core 3.1.2.1): `login_hint` reaches the hosted
// sign-in page through the engine's bridge and prefills the user name; `prompt=login` shows the
// sign-in form even to a browser that is signed in (`?reauth=1`), and the flow completes with the
// fresh sign-in. The client's consent is Implicit, so no consent page comes between.

const SCOPE = 'openid profile';
const CLIENT_ID = 'hinted-app';

let cpAdmin: APIRequestContext;
let realm: TestRealm;
let callback: CallbackServer;
let config: oidc.Configuration;

test.beforeAll(async () => {
  cpAdmin = await controlPlaneAdmin();
  realm = await createRealm(cpAdmin, 'lh');
  callback = await startCallbackServer();
  await createOAuthClient(realm, {
    ClientId: CLIENT_ID,
    DisplayName: 'Hinted App',
    ClientType: 'Public',
    ConsentType: 'Implicit',
    RedirectUris: [callback.redirectUri],
    GrantTypes: ['authorization_code'],
    Scopes: ['openid', 'profile'],
  });
  config = await discoverPublicClient(realm, CLIENT_ID);
});

test.afterAll(async () => {
  await callback?.close();
  await cpAdmin?.dispose();
});

test.beforeEach(async ({ context }) => {
  await quietDevReloads(context);
});

const userField = (page: Page) => page.getByLabel('User name or e-mail');
const passwordField = (page: Page) => page.getByLabel('Password', { exact: true });

/** Waits for the hosted sign-in page and returns its query. */
async function atSignIn(page: Page): Promise<URLSearchParams> {
  await page.waitForURL((url) => url.origin === realm.origin && url.pathname === '/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  return new URL(page.url()).searchParams;
}

/** Waits for the client's redirect URI and redeems the code; returns the ID token's claims. */
async function completeAt(page: Page, request: AuthorizeRequest, user: TestUser): Promise<oidc.IDToken> {
  await page.waitForURL((url) => url.href.startsWith(callback.redirectUri));
  const at = new URL(page.url());
  expect(at.searchParams.get('state')).toBe(request.state);
  const tokens = await oidc.authorizationCodeGrant(config, at, { pkceCodeVerifier: request.verifier, expectedState: request.state });
  const claims = tokens.claims();
  expect(claims?.sub).toBe(user.id);
  return claims!;
}

test('login_hint prefills the user name of the hosted sign-in; only the password is typed', async ({ page }) => {
  const user = await createRealmUser(realm, 'hinted');
  const request = await authorizeRequest(config, callback.redirectUri, SCOPE, { login_hint: user.userName });
  await page.goto(request.url);
  const query = await atSignIn(page);
  expect(query.get('redirect')).toMatch(/^\/connect\/interaction\/[\w-]+$/);
  expect(query.get('login_hint')).toBe(user.userName);
  expect(query.get('reauth')).toBeNull();

  const assertClean = watchConsole(page);
  await expect(userField(page)).toHaveValue(user.userName);
  // The caret waits where the person still has to type.
  await expect(passwordField(page)).toBeFocused();
  await page.keyboard.type(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await completeAt(page, request, user);
  assertClean();
});

test('a hint that is no plausible user name is ignored; markup in one stays text', async ({ page }) => {
  await page.goto(`${realm.origin}/login?login_hint=${encodeURIComponent('  someone@example.test  ')}`);
  await atSignIn(page);
  await expect(userField(page)).toHaveValue('someone@example.test');

  for (const junk of ['two words', 'x'.repeat(257)]) {
    await page.goto(`${realm.origin}/login?login_hint=${encodeURIComponent(junk)}`);
    await atSignIn(page);
    // Hydrated (the form answers its own validation) and still empty.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Enter your user name or e-mail address.').first()).toBeVisible();
    await expect(userField(page)).toHaveValue('');
  }

  const markup = '<b>held</b><img/src=x/onerror=alert(1)>';
  await page.goto(`${realm.origin}/login?login_hint=${encodeURIComponent(markup)}`);
  await atSignIn(page);
  await expect(userField(page)).toHaveValue(markup);
  await expect(page.locator('b', { hasText: 'held' })).toHaveCount(0);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
});

test('prompt=login shows the sign-in form to a signed-in browser; signing in again completes the flow', async ({ page }) => {
  const user = await createRealmUser(realm, 'again');
  await page.goto(`${realm.origin}/login`);
  await signIn(page, user.userName, user.password);
  await expect(page).toHaveURL(`${realm.origin}/account`);
  // auth_time has one-second resolution: the first sign-in happened at or before `signedIn`.
  const signedIn = Math.floor(Date.now() / 1000);

  // Without prompt=login the session is enough: no sign-in page on the way.
  const plain = await authorizeRequest(config, callback.redirectUri, SCOPE);
  await page.goto(plain.url);
  await completeAt(page, plain, user);

  // Let the clock pass that second, so a fresh sign-in shows in auth_time.
  await expect.poll(() => Math.floor(Date.now() / 1000)).toBeGreaterThan(signedIn);
  const again = await authorizeRequest(config, callback.redirectUri, SCOPE, { prompt: 'login', login_hint: user.userName });
  await page.goto(again.url);
  const query = await atSignIn(page);
  expect(query.get('reauth')).toBe('1');
  await expect(userField(page)).toHaveValue(user.userName);
  await passwordField(page).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const fresh = await completeAt(page, again, user);
  expect(Number(fresh.auth_time)).toBeGreaterThan(signedIn);
});

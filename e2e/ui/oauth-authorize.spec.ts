import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { signIn, watchConsole } from './support/env';
import { controlPlaneAdmin, createRealm, createRealmUser, quietDevReloads, type TestRealm, type TestUser } from './support/hosted';
import {
  authorizeRequest,
  createOAuthClient,
  discoverPublicClient,
  realmFetch,
  startCallbackServer,
  type AuthorizeRequest,
  type CallbackServer,
} from './support/oauth';

// The authorization code flow in a real browser (issue 4.2): /connect/authorize without a session
// goes to the hosted sign-in, back through the engine to the hosted consent page of an Explicit
// client, and on to the client's redirect URI; the code is redeemed from Node with PKCE. The grant is
// remembered for the browser session, and signing out of the hosted pages signs out of the engine.

const SCOPE = 'openid profile email';
const APP_NAME = 'Reading List';

let cpAdmin: APIRequestContext;
let realm: TestRealm;
let callback: CallbackServer;
let config: oidc.Configuration;

test.beforeAll(async () => {
  cpAdmin = await controlPlaneAdmin();
  realm = await createRealm(cpAdmin, 'oa');
  callback = await startCallbackServer();
  const client = await createOAuthClient(realm, {
    ClientId: 'reading-list',
    DisplayName: APP_NAME,
    ClientType: 'Public',
    ConsentType: 'Explicit',
    RedirectUris: [callback.redirectUri],
    GrantTypes: ['authorization_code'],
    Scopes: ['openid', 'profile', 'email'],
  });
  config = await discoverPublicClient(realm, client.ClientId);
});

test.afterAll(async () => {
  await callback?.close();
  await cpAdmin?.dispose();
});

test.beforeEach(async ({ context }) => {
  await quietDevReloads(context);
});

/** The paths of the realm every top-level navigation (redirects included) passed through. */
function recordRealmPaths(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (req) => {
    if (req.isNavigationRequest() && req.frame() === page.mainFrame() && req.url().startsWith(realm.origin)) paths.push(new URL(req.url()).pathname);
  });
  return paths;
}

async function expectAtCallback(page: Page): Promise<URL> {
  await page.waitForURL((url) => url.href.startsWith(callback.redirectUri));
  await expect(page.getByRole('heading', { name: 'Back at the application' })).toBeVisible();
  return new URL(page.url());
}

/** Redeems the callback's code at /connect/token and checks the ID token names `user`. */
async function redeemFor(request: AuthorizeRequest, at: URL, user: TestUser): Promise<void> {
  const tokens = await oidc.authorizationCodeGrant(config, at, { pkceCodeVerifier: request.verifier, expectedState: request.state });
  expect(tokens.id_token).toBeTruthy();
  const jwks = (await (
    await realmFetch()(`${realm.origin}/.well-known/jwks`, { method: 'GET', headers: {}, body: null, redirect: 'manual' })
  ).json()) as JSONWebKeySet;
  const { payload } = await jwtVerify(tokens.id_token!, createLocalJWKSet(jwks), { issuer: realm.origin, audience: 'reading-list' });
  expect(payload.sub).toBe(user.id);
  const info = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
  expect(info.preferred_username).toBe(user.userName);
  expect(info.email).toBe(user.email);
}

async function signOutOfAccount(page: Page): Promise<void> {
  await page.goto(`${realm.origin}/account`);
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  // The account sections load after the page; a refusal landing after the sign-out would send the
  // page to sign-in instead of the signed-out page.
  await page.waitForLoadState('networkidle');
  await page.getByRole('main').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page).toHaveURL(`${realm.origin}/logged-out`);
}

async function expectConsentPage(page: Page, user: TestUser): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${realm.origin}/consent\\?uid=[\\w-]+$`));
  await expect(page.getByRole('heading', { level: 1, name: `Allow ${APP_NAME}?` })).toBeVisible();
  await expect(page.getByText(`Signed in as ${user.userName}`)).toBeVisible();
  const permissions = page.getByRole('region', { name: `This will allow ${APP_NAME} to:` }).getByRole('listitem');
  await expect(permissions).toHaveText([/^Sign you in$/, /^ProfileYour name and profile$/, /^E-mail addressYour e-mail address$/]);
}

test('sign in, consent, Allow: the client gets a code for that person; the grant is remembered until sign-out', async ({ page }) => {
  const user = await createRealmUser(realm, 'reader');
  const paths = recordRealmPaths(page);

  await test.step('no session: the hosted sign-in, then the consent page', async () => {
    const first = await authorizeRequest(config, callback.redirectUri, SCOPE);
    await page.goto(first.url);
    await expect(page).toHaveURL(new RegExp(`^${realm.origin}/login\\?redirect=%2Fconnect%2Finteraction%2F[\\w-]+$`));
    await signIn(page, user.userName, user.password);
    const assertClean = watchConsole(page);
    await expectConsentPage(page, user);
    await page.screenshot({ path: '/tmp/oauth-consent.png', fullPage: true });
    await page.getByRole('button', { name: 'Allow' }).click();

    const at = await expectAtCallback(page);
    expect(at.searchParams.get('state')).toBe(first.state);
    expect(at.searchParams.get('code')).toBeTruthy();
    expect(at.searchParams.get('iss')).toBe(realm.origin);
    expect(callback.received.at(-1)?.get('code')).toBe(at.searchParams.get('code'));
    await redeemFor(first, at, user);
    assertClean();
  });

  await test.step('a second authorization goes straight through: no sign-in, no consent', async () => {
    paths.length = 0;
    const second = await authorizeRequest(config, callback.redirectUri, SCOPE);
    await page.goto(second.url);
    const at = await expectAtCallback(page);
    expect(at.searchParams.get('state')).toBe(second.state);
    expect(
      paths.filter((p) => p === '/login' || p === '/consent'),
      paths.join(' -> '),
    ).toEqual([]);
    await redeemFor(second, at, user);
  });

  await test.step('signing out of the hosted account pages signs the browser out of the engine', async () => {
    await signOutOfAccount(page);
    const third = await authorizeRequest(config, callback.redirectUri, SCOPE);
    await page.goto(third.url);
    await expect(page).toHaveURL(new RegExp(`^${realm.origin}/login\\?redirect=%2Fconnect%2Finteraction%2F[\\w-]+$`));
    paths.length = 0;
    await signIn(page, user.userName, user.password);
    // The same person again: the engine's grant for this browser still stands, so no second question.
    const at = await expectAtCallback(page);
    expect(at.searchParams.get('state')).toBe(third.state);
    expect(
      paths.filter((p) => p === '/consent'),
      paths.join(' -> '),
    ).toEqual([]);
    await redeemFor(third, at, user);
  });

  await test.step('after signing out, someone else signing in on the same browser gets a session and a question of their own', async () => {
    const other = await createRealmUser(realm, 'sibling');
    await signOutOfAccount(page);
    const fourth = await authorizeRequest(config, callback.redirectUri, SCOPE);
    await page.goto(fourth.url);
    await expect(page).toHaveURL(new RegExp(`^${realm.origin}/login\\?redirect=%2Fconnect%2Finteraction%2F[\\w-]+$`));
    await signIn(page, other.userName, other.password);
    await expectConsentPage(page, other);
    await page.getByRole('button', { name: 'Allow' }).click();
    const at = await expectAtCallback(page);
    expect(at.searchParams.get('state')).toBe(fourth.state);
    await redeemFor(fourth, at, other);
  });
});

test('Deny sends access_denied back to the client; the request cannot be answered twice or by someone else', async ({ page, browser }) => {
  const user = await createRealmUser(realm, 'denier');
  const request = await authorizeRequest(config, callback.redirectUri, SCOPE);
  await page.goto(request.url);
  await signIn(page, user.userName, user.password);
  await expectConsentPage(page, user);
  const consentUrl = page.url();

  // Someone else opening the same link, signed in or not, learns nothing about the request.
  const onlooker = await createRealmUser(realm, 'onlooker');
  const stranger = await browser.newContext();
  try {
    const other = await stranger.newPage();
    await other.goto(consentUrl);
    await expect(other.getByRole('heading', { level: 1, name: 'This request has expired' })).toBeVisible();
    await other.goto(`${realm.origin}/login`);
    await signIn(other, onlooker.userName, onlooker.password);
    await expect(other).toHaveURL(`${realm.origin}/account`);
    await other.goto(consentUrl);
    await expect(other.getByRole('heading', { level: 1, name: 'This request has expired' })).toBeVisible();
    await expect(other.getByText(APP_NAME)).toHaveCount(0);
    await expect(other.getByRole('button', { name: 'Allow' })).toHaveCount(0);
  } finally {
    await stranger.close();
  }

  // The keyboard reaches Deny and presses it.
  await page.getByRole('button', { name: 'Deny' }).focus();
  await page.keyboard.press('Enter');
  const at = await expectAtCallback(page);
  expect(at.searchParams.get('error')).toBe('access_denied');
  expect(at.searchParams.get('state')).toBe(request.state);
  expect(at.searchParams.get('code')).toBeNull();
  expect(callback.received.at(-1)?.get('error')).toBe('access_denied');

  await page.goto(consentUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'This request has expired' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Allow' })).toHaveCount(0);
});

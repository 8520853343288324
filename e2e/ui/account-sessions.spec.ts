import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { openAccount } from './support/account';
import { signIn, watchConsole } from './support/env';
import { controlPlaneAdmin, createRealm, createRealmUser, quietDevReloads, type TestRealm, type TestUser } from './support/hosted';
import { authorizeRequest, createOAuthClient, discoverPublicClient, startCallbackServer, type CallbackServer } from './support/oauth';

// The Sessions section of /account (spec 4.6): the same person signed in in two browser contexts,
// one of them signed out from the other; an application's access from a code flow, removed; and
// "Sign out everywhere". Context B claims to be Firefox on Windows so the two rows differ.

const APP_NAME = 'Reading Tracker';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';

let cpAdmin: APIRequestContext;
let realm: TestRealm;
let callback: CallbackServer;
let config: oidc.Configuration;

test.beforeAll(async () => {
  cpAdmin = await controlPlaneAdmin();
  realm = await createRealm(cpAdmin, 'ss');
  callback = await startCallbackServer();
  // Implicit consent: the authorization goes straight back to the client for a signed-in browser.
  const client = await createOAuthClient(realm, {
    ClientId: 'reading-tracker',
    DisplayName: APP_NAME,
    ClientType: 'Public',
    ConsentType: 'Implicit',
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

async function signedInContext(context: BrowserContext, user: TestUser): Promise<Page> {
  await quietDevReloads(context);
  const page = await context.newPage();
  await page.goto(`${realm.origin}/login?redirect=%2Faccount`);
  await signIn(page, user.userName, user.password);
  await expect(page).toHaveURL(`${realm.origin}/account`);
  return page;
}

test('two browsers, an application, and signing out of them from the Sessions section', async ({ browser }) => {
  const user = await createRealmUser(realm, 'sess');
  const contextA = await browser.newContext();
  const contextB = await browser.newContext({ userAgent: FIREFOX_ON_WINDOWS });
  try {
    const pageA = await signedInContext(contextA, user);
    const pageB = await signedInContext(contextB, user);
    const assertClean = watchConsole(pageA);
    const section = pageA.getByRole('region', { name: 'Sessions' });
    const browsers = section.getByRole('table', { name: 'Browsers signed in to your account' });

    await test.step('A lists both browsers, this one marked', async () => {
      await openAccount(pageA, realm.host);
      await expect(browsers.getByRole('row')).toHaveCount(3);
      await expect(browsers.getByRole('row').nth(1)).toContainText('This browser');
      await expect(browsers.getByRole('row').nth(1)).toContainText('Now');
      await expect(browsers.getByRole('row').filter({ hasText: 'This browser' }).getByRole('button')).toHaveCount(0);
      await expect(browsers.getByRole('row').filter({ hasText: 'Firefox on Windows' })).toContainText(/just now|minute/);
      // The page header's own sign-out stays the one button named exactly "Sign out".
      await expect(pageA.getByRole('main').getByRole('button', { name: 'Sign out', exact: true })).toHaveCount(1);
      await pageA.screenshot({ path: '/tmp/gatehouse-account-sessions.png', fullPage: true });
    });

    await test.step('signing out the other browser ends B’s session', async () => {
      await section.getByRole('button', { name: /^Sign out Firefox on Windows( from \S+)?, last active / }).click();
      await expect(section.getByText('Signed out Firefox on Windows')).toBeVisible();
      // The button that was used is gone: focus is on the result, not lost to the page.
      await expect(section.locator('.account-live')).toBeFocused();
      await expect(browsers.getByRole('row')).toHaveCount(2);
      await expect(section.getByText('You are signed in on this browser only.')).toBeVisible();
      await pageB.goto(`${realm.origin}/account`);
      await expect(pageB).toHaveURL(`${realm.origin}/login?redirect=%2Faccount`);
    });

    await test.step('an application signed in by a code flow is listed, and Remove access revokes it', async () => {
      const request = await authorizeRequest(config, callback.redirectUri, 'openid profile');
      await pageA.goto(request.url);
      await pageA.waitForURL((url) => url.href.startsWith(callback.redirectUri));
      const tokens = await oidc.authorizationCodeGrant(config, new URL(pageA.url()), { pkceCodeVerifier: request.verifier, expectedState: request.state });
      await oidc.fetchUserInfo(config, tokens.access_token, user.id);

      await openAccount(pageA, realm.host);
      const apps = section.getByRole('table', { name: 'Applications with access to your account' });
      const row = apps.getByRole('row').filter({ hasText: APP_NAME });
      await expect(row).toBeVisible();
      await expect(row.getByRole('list', { name: `What ${APP_NAME} can access` }).getByRole('listitem')).toHaveText(['openid', 'profile']);
      await row.getByRole('button', { name: `Remove access for ${APP_NAME}` }).click();
      await expect(section.getByText(`Removed access for ${APP_NAME}.`)).toBeVisible();
      await expect(section.getByText('No applications are signed in with your account.')).toBeVisible();
      // Its tokens went with it.
      await expect(oidc.fetchUserInfo(config, tokens.access_token, user.id)).rejects.toThrow();
    });

    await test.step('Sign out everywhere asks first, then signs A out too', async () => {
      await section.getByRole('button', { name: 'Sign out everywhere…' }).click();
      const dialog = pageA.getByRole('dialog', { name: 'Sign out everywhere?' });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await section.getByRole('button', { name: 'Sign out everywhere…' }).click();
      await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
      await expect(pageA).toHaveURL(`${realm.origin}/logged-out`);
      await pageA.goto(`${realm.origin}/account`);
      await expect(pageA).toHaveURL(`${realm.origin}/login?redirect=%2Faccount`);
    });
    assertClean();
  } finally {
    await contextA.close();
    await contextB.close();
  }
});

import { expect, type Page } from '@playwright/test';
import { ensureAdmin, gatehouse, signIn, urlOn } from './env';

// Shared by the account-*.spec.ts files: Chromium's virtual authenticator and a realm of its own on
// `<slug>.localhost` (docs/environment.md "Browsers").

/** Chromium's virtual platform authenticator for this page (CDP WebAuthn domain). */
export async function addVirtualAuthenticator(page: Page): Promise<string> {
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
  return authenticatorId;
}

/** A control-plane administrator signed in through /login on localhost. */
export async function signInAdmin(page: Page, userName: string, password: string): Promise<void> {
  await ensureAdmin(userName, password);
  await page.goto(urlOn('localhost', '/login'));
  await signIn(page, userName, password);
  await expect(page).toHaveURL(urlOn('localhost', '/console'));
}

/**
 * A new realm served on `<slug>.localhost` with an administrator who has a password, made by the
 * signed-in control-plane administrator of `page` and the recovery CLI.
 */
export async function createRealmWithAdmin(page: Page, slug: string, admin: { userName: string; password: string; email: string }): Promise<string> {
  const host = `${slug}.localhost`;
  const res = await page.request.post(urlOn('localhost', '/api/admin/realms'), {
    headers: { origin: urlOn('localhost', '') },
    data: { Slug: slug, DisplayName: `Realm ${slug}`, Domains: [host] },
  });
  expect(res.status(), await res.text()).toBe(201);
  await gatehouse('recover', 'bootstrap-admin', '--realm', slug, '--email', admin.email, '--username', admin.userName, '--password', admin.password);
  return host;
}

/** Opens /account and waits for the client sections to settle. */
export async function openAccount(page: Page, host = 'localhost'): Promise<void> {
  await page.goto(urlOn(host, '/account'));
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  await page.waitForLoadState('networkidle');
}

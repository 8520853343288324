import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ensureAdmin, signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';

// OAuth clients and service accounts through the console, against the real API; then the
// credentials the console showed once are used from Node at /connect/token, which proves the
// console made working ones and showed the real secret.
const suffix = uniqueSuffix();
const admin = `oauth-admin-${suffix}`;
const password = `oauth-admin-pass-${suffix}`;
const SCOPE = 'gatehouse.management';

test.beforeAll(async () => {
  await ensureAdmin(admin, password);
});

/** client_credentials with HTTP Basic (the ids and secrets are URL-safe, no escaping needed). */
function tokenRequest(request: APIRequestContext, clientId: string, secret: string) {
  return request.post(urlOn('localhost', '/connect/token'), {
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    form: { grant_type: 'client_credentials', scope: SCOPE },
  });
}

/** The one-time panel's values, after checking it says they will not be shown again. */
async function readSecretOnce(page: Page): Promise<{ clientId: string; secret: string }> {
  const panel = page.getByRole('region', { name: 'One-time secret' });
  // The warning takes focus, so keyboard and screen-reader users land on it.
  await expect(panel.getByRole('status').filter({ hasText: /you won’t see it again/i })).toBeFocused();
  await expect(panel.getByRole('button', { name: 'Copy' }).first()).toBeVisible();
  const clientId = await panel.getByLabel('Client ID').inputValue();
  const secret = await panel.getByLabel('Client secret').inputValue();
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return { clientId, secret };
}

test('an administrator creates a confidential client and a service-account credential that work at /connect/token', async ({ page, request }) => {
  const assertClean = watchConsole(page);
  const clientName = `Billing backend ${suffix}`;
  const accountName = `ci-pipeline-${suffix}`;
  await page.goto('/login?redirect=%2Fconsole');
  await signIn(page, admin, password);
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: 'OAuth clients' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Service accounts' })).toBeVisible();

  await test.step('a server refusal is shown at the field it names', async () => {
    await nav.getByRole('link', { name: 'OAuth clients' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'OAuth clients' })).toBeVisible();
    await page.getByRole('link', { name: 'New client' }).click();
    await page.getByLabel('Display name').fill(clientName);
    // authorization_code (checked by default) without a redirect URI: the API answers 400 per field.
    await page.getByRole('button', { name: 'Create client' }).click();
    await expect(page.getByRole('textbox', { name: /^Redirect URIs/ })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/needs at least one redirect URI/)).toBeVisible();
  });

  let client = { clientId: '', secret: '' };
  await test.step('create a confidential client and see its secret once', async () => {
    await page.getByRole('checkbox', { name: 'Authorization code' }).uncheck();
    await page.getByRole('checkbox', { name: 'Refresh token' }).uncheck();
    await page.getByRole('checkbox', { name: 'Client credentials' }).check();
    await page.getByRole('checkbox', { name: SCOPE }).check();
    await page.getByRole('button', { name: 'Create client' }).click();
    client = await readSecretOnce(page);
    await page.getByRole('link', { name: /I have stored the secret/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: clientName })).toBeVisible();
    // Never again: not on the client's page.
    expect(await page.content()).not.toContain(client.secret);
  });

  await test.step('the client is listed', async () => {
    await nav.getByRole('link', { name: 'OAuth clients' }).click();
    const row = page.getByRole('row').filter({ hasText: clientName });
    await expect(row).toContainText(client.clientId);
    await expect(row).toContainText('Confidential');
    await expect(row).toContainText('Client credentials');
  });

  let credential = { clientId: '', secret: '' };
  await test.step('create a service account and a credential, see ClientId and secret once', async () => {
    await nav.getByRole('link', { name: 'Service accounts' }).click();
    await page.getByRole('link', { name: 'New service account' }).click();
    await page.getByLabel('Name', { exact: true }).fill(accountName);
    await page.getByRole('button', { name: 'Create service account' }).click();
    await expect(page.getByRole('heading', { level: 1, name: accountName })).toBeVisible();
    const form = page.getByRole('form', { name: 'New credential' });
    await form.getByLabel('Credential name').fill('Nightly sync');
    await form.getByRole('checkbox', { name: SCOPE }).check();
    await form.getByRole('button', { name: 'Create credential' }).click();
    credential = await readSecretOnce(page);
    expect(credential.clientId).toMatch(/^sa-/);
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    await expect(page.getByRole('region', { name: 'One-time secret' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Credentials' }).getByRole('row').filter({ hasText: 'Nightly sync' })).toContainText(credential.clientId);
    expect(await page.content()).not.toContain(credential.secret);
  });

  await test.step('from Node, both secrets get a token for the management API', async () => {
    for (const { clientId, secret } of [client, credential]) {
      const res = await tokenRequest(request, clientId, secret);
      expect(res.status(), await res.text()).toBe(200);
      expect((await res.json()).scope).toBe(SCOPE);
    }
  });

  await test.step('rotating the credential shows a new secret once; the old one stops working', async () => {
    await page.getByRole('button', { name: 'Rotate the secret of Nightly sync' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await readSecretOnce(page);
    expect(rotated.clientId).toBe(credential.clientId);
    expect(rotated.secret).not.toBe(credential.secret);
    expect((await tokenRequest(request, rotated.clientId, rotated.secret)).status()).toBe(200);
    expect((await tokenRequest(request, credential.clientId, credential.secret)).status()).toBe(401);
  });

  await test.step("the credential's client is read-only in the clients console", async () => {
    await page.getByRole('region', { name: 'Credentials' }).getByRole('link', { name: credential.clientId }).click();
    await expect(page.getByText('Managed by a service account')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Delete…' })).toHaveCount(0);
  });
  await page.screenshot({ path: '/tmp/gatehouse-console-oauth.png', fullPage: true });
  assertClean();
});

import { expect, test, type Page } from '@playwright/test';
import { signIn, uniqueSuffix, watchConsole } from './support/env';
import { createRealm, realmAdmin, useControlPlaneAdmin, type TestRealm } from './support/hosted';

// The console covers the OAuth resources and realm settings the API has (issue 12 point 3), in a
// realm of its own: an OAuth API with its implicit scope, a scope of its own, edited and deleted;
// a client's application and capability; the OAuth switches and a rate-limit override row saved
// and shown again after a reload, where a dimension the policy does not count is not offered and
// the server refuses it.

const cpAdmin = useControlPlaneAdmin();

const nav = (page: Page) => page.getByRole('navigation', { name: 'Console' });

async function apiOf<T>(realm: TestRealm, path: string): Promise<T> {
  const admin = await realmAdmin(realm);
  try {
    const res = await admin.get(path);
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as T;
  } finally {
    await admin.dispose();
  }
}

test('an administrator manages OAuth APIs, scopes and a client’s application through the console', async ({ page }) => {
  test.slow();
  const realm = await createRealm(cpAdmin(), 'or');
  const suffix = uniqueSuffix();
  const apiName = `inventory-${suffix}`;
  const audience = `https://inventory-${suffix}.example.test`;
  const scopeName = `inventory.read.${suffix}`;

  // A second application and a confidential client, made over the API: the console sets one on the other.
  const admin = await realmAdmin(realm);
  const appSlug = `shop-${suffix}`.slice(0, 30).toLowerCase();
  const app = await admin.post('/api/app', { data: { Slug: appSlug, DisplayName: `Shop ${suffix}`, PermissionCatalog: [], Settings: {} } });
  expect(app.status(), await app.text()).toBe(201);
  const appId = ((await app.json()) as { Id: string }).Id;
  const client = await admin.post('/api/admin/oauth/clients', {
    data: { DisplayName: `Backend ${suffix}`, ClientType: 'Confidential', GrantTypes: ['client_credentials'] },
  });
  expect(client.status(), await client.text()).toBe(201);
  const clientRecordId = ((await client.json()) as { Id: string }).Id;
  await admin.dispose();

  const assertClean = watchConsole(page);
  await page.goto(`${realm.origin}/login?redirect=%2Fconsole`);
  await signIn(page, realm.admin.userName, realm.admin.password);
  await expect(page).toHaveURL(`${realm.origin}/console`);

  await test.step('the OAuth hub links clients, APIs and scopes', async () => {
    await page.goto(`${realm.origin}/console/oauth`);
    await expect(page.getByRole('heading', { level: 1, name: 'OAuth' })).toBeVisible();
    for (const name of ['OAuth clients', 'OAuth APIs', 'OAuth scopes']) await expect(page.getByRole('main').getByRole('link', { name })).toBeVisible();
  });

  await test.step('create an OAuth API; a bad audience is refused at its field', async () => {
    await nav(page).getByRole('link', { name: 'OAuth APIs' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'OAuth APIs' })).toBeVisible();
    await page.getByRole('link', { name: 'New API' }).click();
    await page.getByLabel('Name', { exact: true }).fill(apiName);
    await page.getByLabel(/^Audience/).fill('not a uri');
    await page.getByRole('button', { name: 'Create API' }).click();
    await expect(page.getByLabel(/^Audience/)).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel(/^Audience/).fill(audience);
    await page.getByLabel(/^Display name/).fill(`Inventory ${suffix}`);
    await page.getByRole('button', { name: 'Create API' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Inventory ${suffix}` })).toBeVisible();
    await expect(page.getByText('No scope grants this API yet.')).toBeVisible();
  });

  await test.step('create its implicit scope', async () => {
    await page.getByRole('button', { name: 'Create implicit scope' }).click();
    await expect(page.getByText(`Scope “${audience}” created.`)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Scopes granting this API' }).getByRole('link', { name: audience })).toBeVisible();
    // It exists now: the action is not offered twice.
    await expect(page.getByRole('button', { name: 'Create implicit scope' })).toHaveCount(0);
  });

  await test.step('create a scope of the API, then edit it', async () => {
    await nav(page).getByRole('link', { name: 'OAuth scopes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'OAuth scopes' })).toBeVisible();
    await page.getByRole('link', { name: 'New scope' }).click();
    await page.getByLabel('Name', { exact: true }).fill(scopeName);
    await page.getByRole('checkbox', { name: `Inventory ${suffix}` }).check();
    await page.getByRole('button', { name: 'Create scope' }).click();
    await expect(page.getByRole('heading', { level: 1, name: scopeName })).toBeVisible();
    await page.getByLabel(/^Display name/).fill('Read the inventory');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Changes saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(/^Display name/)).toHaveValue('Read the inventory');
    await expect(page.getByRole('checkbox', { name: `Inventory ${suffix}` })).toBeChecked();
    // The list finds it by name.
    await nav(page).getByRole('link', { name: 'OAuth scopes' }).click();
    await page.getByRole('searchbox', { name: 'Search scopes' }).fill(scopeName);
    await page.getByRole('searchbox', { name: 'Search scopes' }).press('Enter');
    await expect(page.getByRole('row').filter({ hasText: scopeName })).toContainText(audience);
  });

  await test.step('the API cannot be deleted while scopes grant it', async () => {
    await nav(page).getByRole('link', { name: 'OAuth APIs' }).click();
    await page.getByRole('link', { name: `Inventory ${suffix}` }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete API' }).click();
    await expect(dialog.getByText(/still a resource of OAuth scopes/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  await test.step('delete both scopes, then edit and delete the API', async () => {
    for (const name of [scopeName, audience]) {
      await nav(page).getByRole('link', { name: 'OAuth scopes' }).click();
      await page.getByRole('link', { name, exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      await page.getByRole('button', { name: 'Delete…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete scope' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'OAuth scopes' })).toBeVisible();
      await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
    }
    await nav(page).getByRole('link', { name: 'OAuth APIs' }).click();
    await page.getByRole('link', { name: `Inventory ${suffix}` }).click();
    await page.getByLabel(/^Description/).fill('Stock levels');
    await page.getByLabel(/^Application/).selectOption(appId);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Changes saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(/^Application/)).toHaveValue(appId);
    expect(await apiOf<{ Description: string; AppId: string }>(realm, `/api/admin/oauth/apis?search=${apiName}`)).toMatchObject({
      items: [{ Description: 'Stock levels', AppId: appId }],
    });
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete API' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'OAuth APIs' })).toBeVisible();
    await expect(page.getByRole('link', { name: `Inventory ${suffix}` })).toHaveCount(0);
  });

  await test.step('set a client’s application and capability', async () => {
    await page.goto(`${realm.origin}/console/oauth/clients/${clientRecordId}`);
    await expect(page.getByRole('heading', { level: 1, name: `Backend ${suffix}` })).toBeVisible();
    await expect(page.getByLabel(/^Application/)).toHaveValue('');
    await page.getByLabel(/^Application/).selectOption(appId);
    await page.getByRole('checkbox', { name: /Trusted forwarder/ }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Changes saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel(/^Application/)).toHaveValue(appId);
    await expect(page.getByRole('checkbox', { name: /Trusted forwarder/ })).toBeChecked();
    const stored = await apiOf<{ AppId: string; Capabilities: string[] }>(realm, `/api/admin/oauth/clients/${clientRecordId}`);
    expect(stored).toMatchObject({ AppId: appId, Capabilities: ['cap:trusted-forwarder'] });
  });
  assertClean();
});

test('realm settings: the OAuth switches and a rate-limit override row are saved and shown again', async ({ page }) => {
  test.slow();
  const realm = await createRealm(cpAdmin(), 'rs');
  const assertClean = watchConsole(page);
  await page.goto(`${realm.origin}/login?redirect=%2Fconsole`);
  await signIn(page, realm.admin.userName, realm.admin.password);
  await expect(page).toHaveURL(`${realm.origin}/console`);
  await nav(page).getByRole('link', { name: 'Realm settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Realm settings' })).toBeVisible();
  const save = page.getByRole('button', { name: 'Save settings' });
  const overrides = page.getByRole('table', { name: 'Rate-limit overrides' });

  await test.step('only the dimensions a policy counts are offered', async () => {
    await expect(page.getByText('No overrides: the built-in limits apply.')).toBeVisible();
    await page.getByRole('button', { name: 'Add override' }).click();
    await page.getByLabel('Policy of override 1').selectOption('reset-password');
    const counted = page.getByLabel('Counted by, override 1');
    await expect(counted).toHaveValue('Source');
    expect(await counted.locator('option').allTextContents()).toEqual(['Source']);
    await page.getByLabel('Policy of override 1').selectOption('login');
    expect(await counted.locator('option').allTextContents()).toEqual(['Source', 'Target', 'App']);
    await counted.selectOption('Target');
    await expect(overrides.getByText('Built-in: 10 per 5 min')).toBeVisible();
  });

  await test.step('a bad ceiling is shown at its cell; a second row of the same pair is refused', async () => {
    await page.getByLabel('Points of override 1').fill('0');
    await page.getByRole('button', { name: 'Add override' }).click();
    await page.getByLabel('Policy of override 2').selectOption('login');
    await page.getByLabel('Counted by, override 2').selectOption('Target');
    await save.click();
    await expect(overrides.getByText('Use at least 1.')).toBeVisible();
    await expect(overrides.getByText('Another row already overrides this policy and dimension.')).toBeVisible();
    await page.getByRole('button', { name: 'Remove override 2' }).click();
  });

  await test.step('switches and the override are saved and shown after a reload', async () => {
    await page.getByLabel('Points of override 1').fill('7');
    await page.getByLabel('Window in seconds of override 1').fill('120');
    await page.getByLabel('Native sign-in grants').check();
    await page.getByLabel('Dynamic client registration').check();
    await page.getByLabel('Client ID metadata documents').check();
    await save.click();
    await expect(page.getByText(/Settings saved/)).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Native sign-in grants')).toBeChecked();
    await expect(page.getByLabel('Dynamic client registration')).toBeChecked();
    await expect(page.getByLabel('Client ID metadata documents')).toBeChecked();
    await expect(page.getByLabel('Policy of override 1')).toHaveValue('login');
    await expect(page.getByLabel('Counted by, override 1')).toHaveValue('Target');
    await expect(page.getByLabel('Points of override 1')).toHaveValue('7');
    await expect(page.getByLabel('Window in seconds of override 1')).toHaveValue('120');
    const stored = await apiOf<Record<string, unknown>>(realm, '/api/realm-settings');
    expect(stored).toMatchObject({
      NativeGrants: { Enabled: true },
      Dcr: { Enabled: true },
      Cimd: { Enabled: true },
      RateLimits: { login: { Target: { Points: 7, DurationSeconds: 120 } } },
    });
  });

  await test.step('the server refuses what the form does not offer, and nothing changes', async () => {
    const admin = await realmAdmin(realm);
    const res = await admin.patch('/api/realm-settings', { data: { RateLimits: { 'reset-password': { Target: { Points: 5, DurationSeconds: 60 } } } } });
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'Validation.Failed', errors: { 'RateLimits.reset-password.Target': [expect.any(String)] } });
    await admin.dispose();
    await page.reload();
    await expect(page.getByLabel('Policy of override 1')).toHaveValue('login');
    await expect(page.getByLabel('Policy of override 2')).toHaveCount(0);
  });

  await test.step('removing the row clears the override', async () => {
    await page.getByRole('button', { name: 'Remove override 1' }).click();
    await save.click();
    await expect(page.getByText(/Settings saved/)).toBeVisible();
    await page.reload();
    await expect(page.getByText('No overrides: the built-in limits apply.')).toBeVisible();
    expect(await apiOf<{ RateLimits: object }>(realm, '/api/realm-settings')).toMatchObject({ RateLimits: {} });
  });
  assertClean();
});

test('an administrator edits a service-account credential’s name, scopes and expiry', async ({ page }) => {
  test.slow();
  const realm = await createRealm(cpAdmin(), 'sc');
  const suffix = uniqueSuffix();
  const admin = await realmAdmin(realm);
  const account = await admin.post('/api/service-account', { data: { Name: `sync-${suffix}` } });
  expect(account.status(), await account.text()).toBe(201);
  const accountId = ((await account.json()) as { Id: string }).Id;
  const credential = await admin.post(`/api/service-account/${accountId}/credentials`, { data: { DisplayName: 'Nightly', Scopes: [] } });
  expect(credential.status(), await credential.text()).toBe(201);
  const credentialId = ((await credential.json()) as { Id: string }).Id;
  await admin.dispose();

  const assertClean = watchConsole(page);
  await page.goto(`${realm.origin}/login?redirect=%2Fconsole`);
  await signIn(page, realm.admin.userName, realm.admin.password);
  await expect(page).toHaveURL(`${realm.origin}/console`);
  await page.goto(`${realm.origin}/console/service-accounts/${accountId}`);
  await page.getByRole('button', { name: 'Edit Nightly' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel(/^Credential name/)).toHaveValue('Nightly');
  await dialog.getByLabel(/^Credential name/).fill('Hourly');
  await dialog.getByRole('checkbox', { name: 'gatehouse.management' }).check();
  await dialog.getByLabel(/^Expires/).fill('2999-01-31T12:00');
  await dialog.getByRole('button', { name: 'Save credential' }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: 'Hourly' });
  await expect(row).toContainText('gatehouse.management');
  const stored = await apiOf<{ items: { Id: string; DisplayName: string; Scopes: string[]; ExpiresAt: string }[] }>(
    realm,
    `/api/service-account/${accountId}/credentials`,
  );
  const saved = stored.items.find((c) => c.Id === credentialId)!;
  expect(saved).toMatchObject({ DisplayName: 'Hourly', Scopes: ['gatehouse.management'] });
  expect(new Date(saved.ExpiresAt).getUTCFullYear()).toBe(2999);
  assertClean();
});

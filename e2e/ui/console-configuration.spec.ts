import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import { signIn, uniqueSuffix, watchConsole } from './support/env';
import { CP_ADMIN, createRealm, useControlPlaneAdmin, type TestRealm } from './support/hosted';

// Configuration as code in the console (spec 4.8): a realm's administrator downloads the export,
// uploads a changed manifest, sees the plan (prune an explicit choice), applies it after a
// confirmation and finds the change in the console; a new client's secret is shown once. On the
// control plane: a realm's page opens that realm's console and downloads its manifest, and a new
// realm can start from a manifest.
const cpAdmin = useControlPlaneAdmin();
const suffix = uniqueSuffix();
let realm: TestRealm;

test.beforeAll(async () => {
  realm = await createRealm(cpAdmin(), 'cfg');
});

type Manifest = { Version: number; Realm: { DisplayName: string }; Groups?: Record<string, unknown>[]; OAuthClients?: Record<string, unknown>[] };

async function downloadJson(page: Page, button: string): Promise<{ download: Download; manifest: Manifest }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  const manifest = JSON.parse(await readFile(await download.path(), 'utf8')) as Manifest;
  return { download, manifest };
}

async function manifestFile(name: string, manifest: Manifest): Promise<string> {
  const path = join(tmpdir(), `${suffix}-${name}`);
  await writeFile(path, JSON.stringify(manifest, null, 2));
  return path;
}

test('a realm administrator previews a changed manifest, applies it and sees the change', async ({ page }) => {
  test.setTimeout(600_000);
  const assertClean = watchConsole(page);
  const group = `Sales ${suffix}`;
  const client = `sync-${suffix}`;
  await page.goto(`${realm.origin}/login?redirect=%2Fconsole`);
  await signIn(page, realm.admin.userName, realm.admin.password);
  const nav = page.getByRole('navigation', { name: 'Console' });
  await nav.getByRole('link', { name: 'Configuration' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Configuration' })).toBeVisible();

  const { download, manifest } = await downloadJson(page, 'Download the export');
  expect(download.suggestedFilename()).toBe(`${realm.slug}.manifest.json`);
  expect(manifest).toMatchObject({ Version: 1, Realm: { DisplayName: `Realm ${realm.slug}` } });

  await test.step('an invalid manifest is refused with the place of each error', async () => {
    const invalid = { ...manifest, Groups: [...(manifest.Groups ?? []), { Name: group, Roles: [{ App: 'gatehouse', Name: 'No such role' }] }] };
    await page.getByLabel('Manifest JSON').fill(JSON.stringify(invalid));
    await page.getByRole('button', { name: 'Preview' }).click();
    const errors = page.getByTestId('manifest-errors');
    await expect(errors).toContainText(`/Groups/${invalid.Groups.length - 1}/Roles/0`);
    await expect(page.getByTestId('plan')).toHaveCount(0);
    await page.getByLabel('Manifest JSON').fill('{ not json');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByText(/This is not valid JSON/)).toBeVisible();
  });

  const changed: Manifest = {
    ...manifest,
    Groups: [...(manifest.Groups ?? []), { Name: group, Description: 'Made by a manifest.' }],
    OAuthClients: [
      ...(manifest.OAuthClients ?? []),
      { ClientId: client, DisplayName: `Sync ${suffix}`, ClientType: 'Confidential', GrantTypes: ['client_credentials'], Scopes: [] },
    ],
  };

  await test.step('upload the changed manifest: the plan shows what would be created', async () => {
    await page.getByLabel('Upload a manifest').setInputFiles(await manifestFile('changed.manifest.json', changed));
    await expect(page.getByLabel('Manifest JSON')).toHaveValue(/"Version": 1/);
    await page.getByRole('button', { name: 'Preview' }).click();
    const plan = page.getByTestId('plan');
    await expect(plan.getByRole('region', { name: 'Created (2)' })).toContainText(`group:${group}`);
    await expect(plan.getByRole('region', { name: 'Created (2)' })).toContainText(`oauth-client:${client}`);
    await expect(plan.getByRole('region', { name: /^Deleted/ })).toHaveCount(0);
    await expect(plan.getByTestId('unchanged')).toContainText(/Unchanged: \d+/);
  });

  await test.step('prune is an explicit choice and plans again', async () => {
    const prune = page.getByLabel('Delete what the manifest does not name (prune)');
    await expect(prune).not.toBeChecked();
    await prune.check();
    await expect(page.getByRole('heading', { name: 'Plan (with prune)' })).toBeVisible();
    await prune.uncheck();
    await expect(page.getByRole('heading', { name: 'Plan', exact: true })).toBeVisible();
  });

  await test.step('apply after confirming: the result and the new secret once', async () => {
    await page.getByTestId('plan').locator('..').locator('..').getByRole('button', { name: 'Apply' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('2 created, 0 updated and 0 deleted');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText('The manifest was applied.')).toBeVisible();
    await expect(page.getByTestId('apply-result').getByRole('region', { name: 'Created (2)' })).toContainText(`group:${group}`);
    await expect(page.getByTestId('secret-once')).toContainText(client);
  });

  await test.step('previewing the same manifest again changes nothing', async () => {
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByTestId('plan')).toContainText('Nothing to change');
    await expect(page.getByTestId('plan').locator('..').locator('..').getByRole('button', { name: 'Apply' })).toBeDisabled();
  });

  await test.step('the group is in the console', async () => {
    await nav.getByRole('link', { name: 'Groups' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
    await expect(page.getByText(group, { exact: true })).toBeVisible();
  });

  assertClean();
});

test('the control plane opens a realm console, downloads its manifest and starts a new realm from one', async ({ page }) => {
  test.setTimeout(600_000);
  const assertClean = watchConsole(page);
  await page.goto(`/login?redirect=${encodeURIComponent(`/console/realms/${realm.slug}`)}`);
  await signIn(page, CP_ADMIN.userName, CP_ADMIN.password);
  await expect(page.getByRole('heading', { level: 1, name: `Realm ${realm.slug}` })).toBeVisible();
  await expect(page.getByRole('link', { name: "Open this realm's console" })).toHaveAttribute('href', `${realm.origin}/console`);

  const { download, manifest } = await downloadJson(page, 'Download manifest');
  expect(download.suggestedFilename()).toBe(`${realm.slug}.manifest.json`);
  expect(manifest.Realm.DisplayName).toBe(`Realm ${realm.slug}`);

  await test.step("the realm's sign-in page names the realm", async () => {
    const other = await page.context().newPage();
    await other.goto(`${realm.origin}/login`);
    await expect(other.getByText(`Use your Realm ${realm.slug} account.`)).toBeVisible();
    await other.close();
  });

  await test.step('a new realm starts from the manifest', async () => {
    const slug = `from-${suffix}`.toLowerCase();
    const group = `Imported ${suffix}`;
    await page.goto('/console/realms/new');
    await page.getByLabel('Display name').fill(`From ${suffix}`);
    await page.getByLabel('Slug').fill(slug);
    await page.getByLabel('Domains').fill(`${slug}.localhost`);
    await page.getByLabel('Invite the first administrator now').uncheck();
    await page
      .getByLabel('Start from a manifest')
      .setInputFiles(await manifestFile('start.manifest.json', { ...manifest, Groups: [...(manifest.Groups ?? []), { Name: group }] }));
    await page.getByRole('button', { name: 'Create realm' }).click();
    await expect(page.getByRole('heading', { name: `Realm “From ${suffix}” created` })).toBeVisible();
    await expect(page.getByTestId('imported')).toContainText('items created');
    const exported = await cpAdmin().get(`/api/admin/realms/${slug}/export`);
    expect(exported.status()).toBe(200);
    expect(((await exported.json()) as Manifest).Groups?.map((g) => g.Name)).toContain(group);
  });

  assertClean();
});

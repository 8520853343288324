import { expect, test } from '@playwright/test';
import { signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';
import { CP_ADMIN, useControlPlaneAdmin } from './support/hosted';

// Applications through the console (spec 4.7 "Applications"): create one with an address of its
// own (Settings.Origin.Subdomain) and a Branding override, see the hosted sign-in page on that
// address wear it, change it, and delete the App: refused in plain words while a role still uses
// it, then after confirmation.
const admin = useControlPlaneAdmin();
const suffix = uniqueSuffix();

test('an administrator gives an application its own address and branding, changes it and deletes it', async ({ page }) => {
  test.setTimeout(600_000);
  const assertClean = watchConsole(page);
  const sub = `shop-${suffix}`;
  const slug = `shop-${suffix}`;
  const appOrigin = urlOn(`${sub}.localhost`);
  await page.goto('/login?redirect=%2Fconsole');
  await signIn(page, CP_ADMIN.userName, CP_ADMIN.password);
  const nav = page.getByRole('navigation', { name: 'Console' });

  await test.step('a refusal of the server is shown at its field', async () => {
    await nav.getByRole('link', { name: 'Applications' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'gatehouse' })).toContainText('Built-in');
    await page.getByRole('link', { name: 'New application' }).click();
    await page.getByLabel('Display name').fill(`Shop ${suffix}`);
    await page.getByLabel('Slug').fill('gatehouse');
    await page.getByRole('button', { name: 'Create application' }).click();
    await expect(page.getByText('gatehouse is the slug of a built-in application; choose another.')).toBeVisible();
    await expect(page.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
  });

  await test.step('create it with a subdomain, a permission and its own branding', async () => {
    await page.getByLabel('Slug').fill(slug);
    await page.getByRole('button', { name: 'Add permission' }).click();
    await page.getByLabel('Permission 1', { exact: true }).fill('orders:read');
    await page.getByLabel('Subdomain').fill(sub);
    await expect(page.getByText(`${sub}.localhost`)).toBeVisible();
    const branding = page.getByRole('region', { name: 'Branding', exact: true });
    await branding.getByLabel('Inherit from the realm').uncheck();
    await branding.getByLabel('Product name').fill(`Shop Online ${suffix}`);
    await branding.getByLabel('Primary colour').fill('#aa0011');
    await page.getByRole('button', { name: 'Create application' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Shop ${suffix}` })).toBeVisible();
    await expect(page.getByRole('link', { name: `${sub}.localhost` })).toHaveAttribute('href', `${appOrigin}login`);
  });

  await test.step('the sign-in page on its address wears its branding', async () => {
    const hosted = await page.context().newPage();
    await hosted.goto(`${appOrigin}login`);
    await expect(hosted.getByTestId('realm-product-name')).toHaveText(`Shop Online ${suffix}`);
    const info = await hosted.evaluate(async () => (await fetch('/api/app-info')).json());
    expect(info).toMatchObject({ App: { Slug: slug }, Branding: { ProductName: `Shop Online ${suffix}`, PrimaryColor: '#aa0011' } });
    await hosted.close();
  });

  await test.step('change the product name', async () => {
    const branding = page.getByRole('region', { name: 'Branding', exact: true });
    await expect(branding.getByLabel('Inherit from the realm')).not.toBeChecked();
    await branding.getByLabel('Product name').fill(`Shop Two ${suffix}`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Changes saved.')).toBeVisible();
    const hosted = await page.context().newPage();
    await hosted.goto(`${appOrigin}login`);
    await expect(hosted.getByTestId('realm-product-name')).toHaveText(`Shop Two ${suffix}`);
    await hosted.close();
  });

  const appId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const role = await admin().post('/api/role', { data: { Name: `Order readers ${suffix}`, AppId: appId, Permissions: ['orders:read'] } });
  expect(role.status()).toBe(201);
  const roleId = ((await role.json()) as { Id: string }).Id;

  await test.step('deleting it while a role uses it is refused in plain words', async () => {
    await page.getByRole('region', { name: 'Delete application' }).getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Delete application' }).click();
    await expect(dialog.getByText(`Still used by 1 role (Order readers ${suffix})`)).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  await test.step('once the role is gone, deleting it (after confirming) removes it and its address', async () => {
    expect((await admin().delete(`/api/role/${roleId}`)).status()).toBe(204);
    await page.getByRole('region', { name: 'Delete application' }).getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete application' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Applications' })).toBeVisible();
    await expect(page.getByRole('link', { name: `Shop ${suffix}` })).toHaveCount(0);
    // Node does not resolve *.localhost: the browser asks.
    const hosted = await page.context().newPage();
    expect((await hosted.goto(`${appOrigin}api/app-info`))?.status()).toBe(404);
    await hosted.close();
  });
  assertClean();
});

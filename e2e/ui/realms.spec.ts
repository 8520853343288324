import { expect, test } from '@playwright/test';
import { ensureAdmin, signIn, uniqueSuffix, watchConsole } from './support/env';

// Realm management pages: edit, deactivate and the irreversible delete behind a typed slug.
const suffix = uniqueSuffix();
const admin = `realm-admin-${suffix}`;
const password = `realm-admin-pass-${suffix}`;

test.beforeAll(async () => {
  await ensureAdmin(admin, password);
});

test('a realm is edited, deactivated and permanently deleted only after its slug is typed', async ({ page }) => {
  const assertClean = watchConsole(page);
  const slug = `temp-${suffix}`;
  await page.goto('/login?redirect=%2Fconsole%2Frealms%2Fnew');
  await signIn(page, admin, password);
  await expect(page.getByRole('heading', { level: 1, name: 'New realm' })).toBeVisible();

  await page.getByLabel('Display name').fill(`Temp ${suffix}`);
  await page.getByLabel('Domains').fill(`${slug}.localhost`);
  await page.getByLabel('Invite the first administrator now').uncheck();
  await page.getByRole('button', { name: 'Create realm' }).click();
  await expect(page.getByRole('heading', { name: `Realm “Temp ${suffix}” created` })).toBeVisible();
  await page.getByRole('link', { name: 'Open the realm' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Temp ${suffix}` })).toBeVisible();

  await test.step('edit the display name', async () => {
    await page.getByLabel('Display name').fill(`Temporary ${suffix}`);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Changes saved.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: `Temporary ${suffix}` })).toBeVisible();
  });

  await test.step('a taken slug is reported at the slug field', async () => {
    await page.goto('/console/realms/new');
    await page.getByLabel('Display name').fill('Another');
    await page.getByLabel('Slug').fill(slug);
    await page.getByLabel('Domains').fill(`another-${suffix}.localhost`);
    await page.getByLabel('Invite the first administrator now').uncheck();
    await page.getByRole('button', { name: 'Create realm' }).click();
    await expect(page.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
    await page.goto(`/console/realms/${slug}`);
  });

  await test.step('deactivate', async () => {
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await expect(page.getByText('The realm is switched off. Its data is kept; activate it to bring it back.')).toBeVisible();
  });

  await test.step('permanent deletion needs the slug typed', async () => {
    await page.getByRole('button', { name: 'Delete permanently…' }).click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: 'Delete permanently' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(/Type .* to confirm/).fill('wrong');
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(/Type .* to confirm/).fill(slug);
    await expect(confirm).toBeEnabled();
    await page.screenshot({ path: '/tmp/gatehouse-hard-delete.png' });
    await confirm.click();
    await expect(page).toHaveURL(/\/console\/realms$/);
    await page.getByLabel('Search realms').fill(slug);
    await expect(page.getByText('No realm matches this search.')).toBeVisible();
  });
  assertClean();
});

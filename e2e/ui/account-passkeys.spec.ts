import { expect, test, type Page } from '@playwright/test';
import { addVirtualAuthenticator, createRealmWithAdmin, openAccount, signInAdmin } from './support/account';
import { signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';

// Passkeys on /account with Chromium's virtual authenticator: added, listed and removed, on the
// control plane's localhost and on a realm's own `<slug>.localhost` (rpID = that host).
const suffix = uniqueSuffix();

async function addListRemove(page: Page, host: string, name: string): Promise<void> {
  await openAccount(page, host);
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('You have no passkeys yet.')).toBeVisible();
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await section.getByLabel('Passkey name').fill(name);
  await section.getByRole('button', { name: 'Create passkey' }).click();
  await expect(section.getByText(`Passkey “${name}” added.`)).toBeVisible();
  const row = section.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Never');
  await page.screenshot({ path: `/tmp/gatehouse-account-passkeys-${host.split('.')[0]}.png`, fullPage: true });

  await test.step('the passkey is removed after confirmation', async () => {
    await row.getByRole('button', { name: `Remove passkey ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this passkey?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Remove passkey ${name}` }).click();
    await dialog.getByRole('button', { name: 'Remove passkey' }).click();
    await expect(section.getByText(`Passkey “${name}” removed.`)).toBeVisible();
    await expect(section.getByText('You have no passkeys yet.')).toBeVisible();
  });
}

test('a passkey is added, listed and removed on localhost', async ({ page }) => {
  const assertClean = watchConsole(page);
  await addVirtualAuthenticator(page);
  await signInAdmin(page, `pk-${suffix}`, `passkey-pass-${suffix}`);
  await addListRemove(page, 'localhost', 'Work laptop');
  assertClean();
});

test('a passkey is added, listed and removed on a realm’s own host', async ({ page }) => {
  const assertClean = watchConsole(page);
  await addVirtualAuthenticator(page);
  await signInAdmin(page, `pk-owner-${suffix}`, `passkey-owner-${suffix}`);
  const admin = { userName: 'realm-admin', password: `realm-pass-${suffix}`, email: `realm-admin-${suffix}@example.test` };
  const host = await createRealmWithAdmin(page, `pk-${suffix}`, admin);
  await page.goto(urlOn(host, '/login?redirect=%2Faccount'));
  await signIn(page, admin.userName, admin.password);
  await expect(page).toHaveURL(urlOn(host, '/account'));
  await addListRemove(page, host, 'Phone');
  assertClean();
});

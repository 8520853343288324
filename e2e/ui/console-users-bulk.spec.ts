import { expect, test } from '@playwright/test';
import { signIn, uniqueSuffix, watchConsole } from './support/env';
import { createRealm, createUser, realmAdmin, useControlPlaneAdmin } from './support/hosted';

// The user operations of the API the console offers besides one user at a time (issue 12 point 3):
// several users deleted and restored at once from the list, and a permanent erasure with its reason
// from a user's page.

const cpAdmin = useControlPlaneAdmin();

test('an administrator deletes and restores several users at once, then erases one permanently', async ({ page }) => {
  test.slow();
  const realm = await createRealm(cpAdmin(), 'ub');
  const tag = `bulk-${uniqueSuffix()}`;
  const admin = await realmAdmin(realm);
  const first = await createUser(admin, `${tag}-a`);
  const second = await createUser(admin, `${tag}-b`);

  const assertClean = watchConsole(page);
  await page.goto(`${realm.origin}/login?redirect=%2Fconsole%2Fusers`);
  await signIn(page, realm.admin.userName, realm.admin.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  const search = page.getByLabel('Search users');
  const show = page.getByLabel('Show', { exact: true });

  await test.step('delete both from the list', async () => {
    await search.fill(tag);
    await expect(page.getByRole('row')).toHaveCount(3);
    await page.getByLabel('Select every user on this page').check();
    await page.getByRole('button', { name: 'Delete selected (2)…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete users' }).click();
    await expect(page.getByText('2 user(s) deleted.')).toBeVisible();
    await expect(page.getByText('No user matches this search.')).toBeVisible();
    const deleted = await admin.get(`/api/user?deleted=true&search=${tag}`);
    expect(((await deleted.json()) as { items: { Id: string }[] }).items.map((u) => u.Id).sort()).toEqual([first.id, second.id].sort());
  });

  await test.step('restore one of them from the Deleted view', async () => {
    await show.selectOption('deleted');
    await page.getByLabel(`Select ${first.userName}`).check();
    await page.getByRole('button', { name: 'Restore selected (1)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore users' }).click();
    await expect(page.getByText('1 user(s) restored.')).toBeVisible();
    await expect(page.getByRole('link', { name: first.userName })).toHaveCount(0);
    await show.selectOption('current');
    await expect(page.getByRole('link', { name: first.userName })).toBeVisible();
  });

  await test.step('erase the restored one permanently, with a reason', async () => {
    await page.getByRole('link', { name: first.userName }).click();
    await page.getByRole('button', { name: 'Erase…' }).click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: 'Erase permanently' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(/^Type/).fill(first.userName);
    await confirm.click();
    await expect(dialog.getByText('Give the reason for the erasure.')).toBeVisible();
    await dialog.getByLabel('Reason', { exact: true }).fill('Request by e-mail, ticket 42');
    await confirm.click();
    // The erasure route is compiled on its first use in development: allow for it.
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible({ timeout: 90_000 });
    expect((await admin.get(`/api/user/${first.id}`)).status()).toBe(404);
  });
  await admin.dispose();
  assertClean();
});

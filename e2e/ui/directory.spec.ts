import { expect, test } from '@playwright/test';
import { ensureAdmin, signIn, uniqueSuffix, watchConsole } from './support/env';

// Users, roles and groups through the console, against the real API.
const suffix = uniqueSuffix();
const admin = `dir-admin-${suffix}`;
const password = `dir-admin-pass-${suffix}`;

test.beforeAll(async () => {
  await ensureAdmin(admin, password);
});

test('an administrator creates a user, a role and a group, and puts the user in the group', async ({ page, browser, baseURL }) => {
  const assertClean = watchConsole(page);
  const userName = `ada-${suffix}`;
  const roleName = `Readers ${suffix}`;
  const groupName = `Auditors ${suffix}`;
  await page.goto('/login?redirect=%2Fconsole%2Fusers');
  await signIn(page, admin, password);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();

  await test.step('create a user', async () => {
    await page.getByRole('link', { name: 'New user' }).click();
    await page.getByLabel('User name').fill(userName);
    await page.getByLabel('E-mail').fill(`${userName}@example.test`);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page.getByText('User created.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeVisible();
  });
  const userUrl = page.url();

  await test.step('a duplicate user name is reported at the field', async () => {
    await page.goto('/console/users/new');
    await page.getByLabel('User name').fill(userName);
    await page.getByLabel('E-mail').fill(`other-${suffix}@example.test`);
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page.getByText(/user name is already taken/i)).toBeVisible();
    await expect(page.getByLabel('User name')).toHaveAttribute('aria-invalid', 'true');
  });

  await test.step('create a role from the built-in catalog', async () => {
    await page.goto('/console/roles/new');
    await page.getByLabel('Name').fill(roleName);
    await page.getByRole('checkbox', { name: 'user:read' }).check();
    await page.getByRole('button', { name: 'Create role' }).click();
    await expect(page.getByRole('heading', { level: 1, name: roleName })).toBeVisible();
  });

  await test.step('create a group that grants the role', async () => {
    await page.goto('/console/groups/new');
    await page.getByLabel('Name', { exact: true }).fill(groupName);
    await page.getByRole('checkbox', { name: roleName }).check();
    await page.getByRole('button', { name: 'Create group' }).click();
    await expect(page.getByRole('heading', { level: 1, name: groupName })).toBeVisible();
  });

  await test.step('add the user to the group', async () => {
    await page.goto(userUrl);
    await page.getByLabel('Group to add').selectOption({ label: groupName });
    await page.getByRole('button', { name: 'Add to group' }).click();
    const groups = page.getByRole('region', { name: 'Groups' });
    await expect(groups.getByRole('link', { name: groupName })).toBeVisible();
    await groups.getByRole('link', { name: groupName }).click();
    await expect(page.getByRole('region', { name: 'Members' }).getByRole('link', { name: 'Ada Lovelace' })).toBeVisible();
  });

  await test.step('deactivate, delete and restore the user', async () => {
    await page.goto(userUrl);
    const status = page.getByRole('region', { name: 'Status' });
    await status.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
    await expect(status.getByText('The user is deactivated and was signed out.')).toBeVisible();
    await status.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete user' }).click();
    await expect(status.getByText('The user was deleted. You can restore them.')).toBeVisible();
    await status.getByRole('button', { name: 'Restore user' }).click();
    await expect(status.getByText('The user was restored.')).toBeVisible();
  });
  await test.step('activate the user and give them a password', async () => {
    const status = page.getByRole('region', { name: 'Status' });
    await status.getByRole('button', { name: 'Activate' }).click();
    await expect(status.getByText('The user can sign in again.')).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill(`ada-pass-${suffix}`);
    await page.getByLabel('Repeat the new password').fill(`ada-pass-${suffix}`);
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByText('Password set.')).toBeVisible();
  });
  await page.screenshot({ path: '/tmp/gatehouse-user.png', fullPage: true });

  await test.step('the logs show what happened', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Security log' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Security log' })).toBeVisible();
    await expect(page.getByRole('table')).toBeVisible();
    await page.screenshot({ path: '/tmp/gatehouse-security-log.png', fullPage: true });
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Platform audit' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Platform audit' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Could not load' })).toHaveCount(0);
  });
  assertClean();

  await test.step('the user sees only what their role allows', async () => {
    const context = await browser.newContext({ baseURL });
    const other = await context.newPage();
    await other.goto('/login');
    await signIn(other, userName, `ada-pass-${suffix}`);
    await expect(other).toHaveURL(/\/console$/);
    const nav = other.getByRole('navigation', { name: 'Console' });
    await expect(nav.getByRole('link', { name: 'Users' })).toBeVisible();
    for (const hidden of ['Groups', 'Roles', 'Realms', 'Security log', 'Platform audit']) await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
    await nav.getByRole('link', { name: 'Users' }).click();
    await expect(other.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
    await expect(other.getByRole('link', { name: 'New user' })).toHaveCount(0);
    await other.goto('/console/roles');
    await expect(other.getByRole('heading', { level: 1, name: 'No access' })).toBeVisible();
    await context.close();
  });
});

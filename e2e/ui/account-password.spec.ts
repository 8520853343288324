import { expect, test } from '@playwright/test';
import { openAccount } from './support/account';
import { ensureAdmin, signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';

const suffix = uniqueSuffix();
const userName = `pw-${suffix}`;
const oldPassword = `old-pass-${suffix}`;
const newPassword = `brand-new-pass-${suffix}`;

test.beforeAll(async () => {
  await ensureAdmin(userName, oldPassword);
});

test('the password is changed on the account page and the new one signs in', async ({ page }) => {
  const assertClean = watchConsole(page);
  await page.goto('/login?redirect=%2Faccount');
  await signIn(page, userName, oldPassword);
  await expect(page).toHaveURL(urlOn('localhost', '/account'));
  await openAccount(page);
  const section = page.getByRole('region', { name: 'Password' });

  await test.step('mismatch and a wrong current password are shown at their fields', async () => {
    await section.getByLabel('Current password').fill('not-my-password');
    await section.getByLabel('New password', { exact: true }).fill(newPassword);
    await section.getByLabel('Repeat the new password').fill(`${newPassword}x`);
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByText('The passwords do not match.')).toBeVisible();
    await section.getByLabel('Repeat the new password').fill(newPassword);
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByText('The current password is not correct.')).toBeVisible();
    await expect(section.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  });

  await test.step('the right current password changes it', async () => {
    await section.getByLabel('Current password').fill(oldPassword);
    await section.getByLabel('New password', { exact: true }).fill(newPassword);
    await section.getByLabel('Repeat the new password').fill(newPassword);
    await section.getByRole('button', { name: 'Change password' }).click();
    await expect(section.getByText('Your password was changed.')).toBeVisible();
    await expect(section.getByLabel('Current password')).toHaveValue('');
  });

  await test.step('the old password no longer signs in, the new one does', async () => {
    await page.getByRole('main').getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveURL(/\/logged-out$/);
    await page.goto('/login');
    await signIn(page, userName, oldPassword);
    await expect(page.locator('form').getByRole('alert')).toContainText('The user name or password is incorrect.');
    await signIn(page, userName, newPassword);
    await expect(page).toHaveURL(urlOn('localhost', '/console'));
  });
  assertClean();
});

import { expect, test } from '@playwright/test';
import { openAccount } from './support/account';
import { TotpDevice } from '../shared/totp-device';
import { ensureAdmin, signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';

// Authenticator-app enrolment on /account, then a sign-in through /login with password and code.
const suffix = uniqueSuffix();
const userName = `totp-${suffix}`;
const password = `totp-pass-${suffix}`;

test.beforeAll(async () => {
  await ensureAdmin(userName, password);
});

test('TOTP is enrolled on the account page and then asked for at sign-in', async ({ page }) => {
  const assertClean = watchConsole(page);
  await page.goto('/login?redirect=%2Faccount');
  await signIn(page, userName, password);
  await expect(page).toHaveURL(urlOn('localhost', '/account'));
  await openAccount(page);
  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await expect(section.getByText('Two-factor authentication is off.')).toBeVisible();

  let device!: TotpDevice;
  await test.step('enrol with the QR code or the key, confirmed with a code', async () => {
    await section.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const qr = section.getByRole('img', { name: 'QR code to scan with your authenticator app' });
    await expect(qr).toBeVisible();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    const key = await section.getByLabel('Setup key').inputValue();
    expect(key).toMatch(/^[A-Z2-7 ]+=*$/);
    device = new TotpDevice(key);
    await page.screenshot({ path: '/tmp/gatehouse-account-totp-setup.png', fullPage: true });
    await section.getByLabel('Verification code').fill('12345');
    await section.getByRole('button', { name: 'Turn on' }).click();
    await expect(section.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
    await section.getByLabel('Verification code').fill(await device.code());
    await section.getByRole('button', { name: 'Turn on' }).click();
    await expect(section.getByRole('status').filter({ hasText: 'Two-factor authentication is on.' })).toBeVisible();
    await expect(section.getByText('On', { exact: true })).toBeVisible();
  });

  await test.step('sign out, then sign in with the password and a code', async () => {
    await page.getByRole('main').getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveURL(/\/logged-out$/);
    await page.goto('/login?redirect=%2Faccount');
    await signIn(page, userName, password);
    const code = page.getByLabel('Verification code');
    await expect(code).toBeVisible();
    await code.fill(await device.code());
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(urlOn('localhost', '/account'));
  });

  await test.step('turn it off again with a code', async () => {
    await openAccount(page);
    await section.getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    await section.getByLabel('Verification code').fill(await device.code());
    await section.getByRole('button', { name: 'Turn off' }).click();
    await expect(section.getByText('Two-factor authentication is off.').first()).toBeVisible();
  });
  assertClean();
});

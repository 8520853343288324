import { expect, test } from '@playwright/test';
import { signIn, urlOn, watchConsole } from './support/env';
import {
  addVirtualAuthenticator,
  useControlPlaneAdmin,
  createUser,
  enrolTotp,
  expectSignedInAs,
  patchSettings,
  registerPasskeyInPage,
  signedInRequest,
  type TestUser,
  leaveAndSignOut,
} from './support/hosted';
import { linkTo, mailCount, waitForMail } from './support/mail';

// The hosted sign-in pages on the control plane (localhost): every method /login offers, the second
// step, and password recovery. Users are made over the API; mail is read from the run's SMTP capture.

const admin = useControlPlaneAdmin();

test('password, then the authenticator code, then on to the continuation', async ({ page }) => {
  const user = await createUser(admin(), 'totp');
  const session = await signedInRequest(user);
  const device = await enrolTotp(session);
  await session.dispose();

  const assertClean = watchConsole(page);
  await page.goto('/login?redirect=%2Faccount');
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('button', { name: 'Use a passkey' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'E-mail me a code' })).toBeVisible();
  await page.screenshot({ path: '/tmp/hosted-login-start.png', fullPage: true, caret: 'initial' });
  await signIn(page, user.userName, user.password);

  const code = page.getByLabel('Verification code');
  await expect(code).toBeVisible();
  await expect(code).toBeFocused();
  // The other second factors the account may use are offered beside it.
  await expect(page.getByRole('button', { name: 'E-mail me a code instead' })).toBeVisible();
  await page.screenshot({ path: '/tmp/hosted-login-totp.png', fullPage: true, caret: 'initial' });

  // A wrong code is refused at the field, which is emptied for the next try.
  await code.fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.locator('.field-error')).toBeVisible();
  await expect(code).toHaveValue('');
  await page.screenshot({ path: '/tmp/hosted-login-totp-error.png', fullPage: true, caret: 'initial' });

  await code.fill(await device.code());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(urlOn('localhost', '/account'));
  await expectSignedInAs(page, user.userName);
  assertClean();
});

test('the second step can be an e-mailed code instead of the app', async ({ page }) => {
  const user = await createUser(admin(), 'totpmail');
  const session = await signedInRequest(user);
  await enrolTotp(session);
  await session.dispose();

  await page.goto('/login?redirect=%2Faccount');
  await signIn(page, user.userName, user.password);
  await page.getByRole('button', { name: 'E-mail me a code instead' }).click();
  const before = await mailCount(user.email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const mail = await waitForMail(user.email, { after: before });
  expect(mail.code).toMatch(/^\d{6}$/);
  await page.getByLabel('Code from the e-mail').fill(mail.code!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(urlOn('localhost', '/account'));
  await expectSignedInAs(page, user.userName);
});

test('sign-in with a code e-mailed to the address', async ({ page }) => {
  const user = await createUser(admin(), 'otp');
  const assertClean = watchConsole(page);
  await page.goto('/login?redirect=%2Faccount');
  await page.getByRole('button', { name: 'E-mail me a code' }).click();

  // The address is checked before anything is sent.
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await expect(page.getByText('Enter your e-mail address.')).toBeVisible();

  const before = await mailCount(user.email);
  await page.getByLabel('E-mail address').fill(user.email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const field = page.getByLabel('Code from the e-mail');
  await expect(field).toBeVisible();
  await page.screenshot({ path: '/tmp/hosted-login-email-code.png', fullPage: true, caret: 'initial' });
  const mail = await waitForMail(user.email, { after: before });
  expect(mail.code).toMatch(/^\d{6}$/);
  await field.fill(mail.code!);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(urlOn('localhost', '/account'));
  await expectSignedInAs(page, user.userName);
  assertClean();
});

test.describe('magic link', () => {
  test.beforeAll(async () => {
    await patchSettings(admin(), { SignIn: { MagicLink: true } });
  });
  test.afterAll(async () => {
    await patchSettings(admin(), { SignIn: { MagicLink: false } });
  });

  test('the mailed link signs in and keeps the continuation; a second use is refused', async ({ page }) => {
    const user = await createUser(admin(), 'magic');
    await page.goto('/login?redirect=%2Faccount%3Ftab%3D1');
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    const before = await mailCount(user.email);
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect(page.getByText('Check your mail')).toBeVisible();
    await page.screenshot({ path: '/tmp/hosted-login-magic-sent.png', fullPage: true, caret: 'initial' });

    const mail = await waitForMail(user.email, { after: before });
    const link = linkTo(mail, '/api/account/magic-link/login');
    await page.goto(link);
    await expect(page).toHaveURL(urlOn('localhost', '/account?tab=1'));
    await expectSignedInAs(page, user.userName);

    await leaveAndSignOut(page);
    await page.goto(link);
    await expect(page).toHaveURL(/\/login\?error=link-invalid/);
    await expect(page.getByText('That sign-in link cannot be used')).toBeVisible();
    await page.screenshot({ path: '/tmp/hosted-login-link-invalid.png', fullPage: true, caret: 'initial' });
  });

  test('a link for an account with 2FA lands on the second step', async ({ page }) => {
    const user = await createUser(admin(), 'magic2fa');
    const session = await signedInRequest(user);
    const device = await enrolTotp(session);
    await session.dispose();
    const before = await mailCount(user.email);
    const res = await page.request.post('/api/account/magic-link/request', { data: { Email: user.email, Redirect: '/account' } });
    expect(res.status()).toBe(200);
    const mail = await waitForMail(user.email, { after: before });
    await page.goto(linkTo(mail, '/api/account/magic-link/login'));
    await expect(page).toHaveURL(/\/login\?step=mfa/);
    await page.getByLabel('Verification code').fill(await device.code());
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(urlOn('localhost', '/account'));
    await expectSignedInAs(page, user.userName);
  });
});

test('forgot password, reset with the mailed link, sign in with the new password', async ({ page }) => {
  const user: TestUser = await createUser(admin(), 'reset');
  await page.goto('/login?redirect=%2Faccount');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password\?redirect=%2Faccount$/);
  const before = await mailCount(user.email);
  await page.getByLabel('E-mail address').fill(user.email);
  await page.getByRole('button', { name: 'Send me a reset link' }).click();
  await expect(page.getByText('Check your mail')).toBeVisible();

  const mail = await waitForMail(user.email, { after: before });
  const resetLink = linkTo(mail, '/reset-password');
  await page.goto(resetLink);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  // The link names the account: its address is shown, never asked for again.
  await expect(page.getByText(`For the account of ${user.email.toLowerCase()}`)).toBeVisible();
  await expect(page.getByLabel('E-mail address')).toHaveCount(0);
  const newPassword = `${user.password}-new`;
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat the new password').fill(`${newPassword}x`);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('The two passwords do not match.')).toBeVisible();
  await page.screenshot({ path: '/tmp/hosted-reset-mismatch.png', fullPage: true, caret: 'initial' });
  await page.getByLabel('Repeat the new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password has been changed')).toBeVisible();
  await page.getByRole('link', { name: 'Continue to sign-in' }).click();
  await expect(page).toHaveURL(/\/login/);
  const signInPage = page.url();

  // The spent link says so at once, without a form and without the address.
  await page.goto(resetLink);
  await expect(page.getByText('This link has already been used')).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  await expect(page.getByText(user.email.toLowerCase())).toHaveCount(0);
  await page.goto(signInPage);

  await expect(page).toHaveURL(/\/login/);
  await signIn(page, user.userName, user.password);
  await expect(page.locator('form').getByRole('alert')).toBeVisible();
  await signIn(page, user.userName, newPassword);
  await expect(page).toHaveURL(urlOn('localhost', '/account'));
  await expectSignedInAs(page, user.userName);
});

test('usernameless passkey sign-in on localhost', async ({ page }) => {
  const user = await createUser(admin(), 'passkey');
  const removeAuthenticator = await addVirtualAuthenticator(page);
  try {
    // Register the passkey as the signed-in user, from a page of the origin.
    await page.goto('/login');
    await signIn(page, user.userName, user.password);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await registerPasskeyInPage(page);
    await leaveAndSignOut(page);

    const assertClean = watchConsole(page);
    await page.goto('/login?redirect=%2Faccount');
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page).toHaveURL(urlOn('localhost', '/account'));
    await expectSignedInAs(page, user.userName);
    assertClean();
  } finally {
    await removeAuthenticator();
  }
});

test('the e-mail confirmation link confirms the address on load; a second use says so', async ({ page }) => {
  const user = await createUser(admin(), 'verify', { emailConfirmed: false });
  const session = await signedInRequest(user);
  const before = await mailCount(user.email);
  const sent = await session.post('/api/account/email/send-verification', { data: {} });
  expect(sent.status()).toBe(200);
  await session.dispose();
  const link = linkTo(await waitForMail(user.email, { after: before }), '/verify-email');

  const assertClean = watchConsole(page);
  await page.goto(link);
  await expect(page.getByText('Your e-mail address is confirmed')).toBeVisible();
  await page.screenshot({ path: '/tmp/hosted-verify-email.png', fullPage: true, caret: 'initial' });
  await page.goto(link);
  await expect(page.getByText(/has already been used|is already confirmed/)).toBeVisible();
  assertClean();
});

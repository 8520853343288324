import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import { signIn, uniqueSuffix, watchConsole } from './support/env';
import {
  addVirtualAuthenticator,
  useControlPlaneAdmin,
  createRealm,
  createRealmUser,
  expectSignedInAs,
  patchRealmSettings,
  registerPasskeyInPage,
  strongPassword,
  leaveAndSignOut,
} from './support/hosted';
import { linkTo, mailCount, waitForMail } from './support/mail';

// The hosted pages on a realm of its own (`<slug>.localhost`, a secure context in Chromium):
// registration, passkeys with the realm's rpID, and the secure set-up after the grace period.

const admin = useControlPlaneAdmin();

test('registration: the form, the mailed link, then signed in', async ({ page }) => {
  const realm = await createRealm(admin(), 'reg');
  await patchRealmSettings(realm, {
    SelfRegistration: { Posture: 'ExplicitEndpoint' },
    RegistrationFields: { Username: 'Required', Firstname: 'Optional', Lastname: 'Off' },
  });

  const assertClean = watchConsole(page);
  await page.goto(`${realm.origin}/login?redirect=%2Faccount`);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(`${realm.origin}/register?redirect=%2Faccount`);
  await expect(page.getByLabel('Last name')).toHaveCount(0);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Choose a user name.')).toBeVisible();
  await page.screenshot({ path: '/tmp/hosted-register-errors.png', fullPage: true, caret: 'initial' });

  const userName = `newbie-${uniqueSuffix()}`;
  const email = `${userName}@example.test`;
  const password = strongPassword();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('User name').fill(userName);
  await page.getByLabel('First name').fill('Nina');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  const before = await mailCount(email);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Check your mail')).toBeVisible();

  const mail = await waitForMail(email, { after: before });
  await page.goto(linkTo(mail, '/register/verify'));
  await expect(page).toHaveURL(`${realm.origin}/account`);
  await expectSignedInAs(page, userName);
  assertClean();

  // The password chosen at registration works.
  await leaveAndSignOut(page);
  await page.goto(`${realm.origin}/login?redirect=%2Faccount`);
  await signIn(page, userName, password);
  await expect(page).toHaveURL(`${realm.origin}/account`);
});

test('usernameless passkey sign-in on a <slug>.localhost realm', async ({ page }) => {
  const realm = await createRealm(admin(), 'pk');
  const user = await createRealmUser(realm, 'pk');
  const removeAuthenticator = await addVirtualAuthenticator(page);
  try {
    await page.goto(`${realm.origin}/login`);
    await signIn(page, user.userName, user.password);
    await expect(page).toHaveURL(`${realm.origin}/account`);
    await registerPasskeyInPage(page);
    await leaveAndSignOut(page);

    const assertClean = watchConsole(page);
    await page.goto(`${realm.origin}/login`);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await expect(page).toHaveURL(`${realm.origin}/account`);
    await expectSignedInAs(page, user.userName);
    assertClean();
  } finally {
    await removeAuthenticator();
  }
});

test('grace period over: TOTP enrolment inside sign-in, then signed in', async ({ page }) => {
  const realm = await createRealm(admin(), 'ss');
  const user = await createRealmUser(realm, 'ss');
  await patchRealmSettings(realm, { TwoFactor: { Required: true, GracePeriodDays: 0 } });

  await page.goto(`${realm.origin}/login?redirect=%2Faccount`);
  await signIn(page, user.userName, user.password);
  await expect(page.getByText('Set up two-factor authentication to continue')).toBeVisible();
  const qr = page.getByRole('img', { name: /QR code/ });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
  const key = (await page.getByLabel('Set-up key (for entering by hand)').inputValue()).replace(/\s+/g, '');
  expect(key).toMatch(/^[A-Z2-7]+=*$/);
  await page.screenshot({ path: '/tmp/hosted-login-secure-setup.png', fullPage: true, caret: 'initial' });

  await page.getByLabel('Code from your authenticator app').fill(await generate({ secret: key }));
  await page.getByRole('button', { name: 'Turn on and continue' }).click();
  await expect(page).toHaveURL(`${realm.origin}/account`);
  await expectSignedInAs(page, user.userName);
});

test('within the grace period: signed in, with a prompt to set up 2FA', async ({ page }) => {
  const realm = await createRealm(admin(), 'gr');
  const user = await createRealmUser(realm, 'gr');
  await patchRealmSettings(realm, { TwoFactor: { Required: true, GracePeriodDays: 7 } });

  await page.goto(`${realm.origin}/login?redirect=%2Faccount`);
  await signIn(page, user.userName, user.password);
  await expect(page.getByText('Please set up two-factor authentication')).toBeVisible();
  await page.screenshot({ path: '/tmp/hosted-login-grace.png', fullPage: true, caret: 'initial' });
  await expectSignedInAs(page, user.userName);
  await page.getByRole('link', { name: 'Set it up now' }).click();
  await expect(page).toHaveURL(`${realm.origin}/account`);
});

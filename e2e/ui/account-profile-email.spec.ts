import { expect, test } from '@playwright/test';
import { openAccount } from './support/account';
import { signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';
import { useControlPlaneAdmin, createUser } from './support/hosted';
import { linkTo, mailCount, waitForMail } from './support/mail';

// A new e-mail address asked for on /account (spec 3.4): the request waits for the new mailbox,
// the mailed link opens /verify-profile-email, which confirms it, and the request goes on to the
// administrators.

const admin = useControlPlaneAdmin();

test('an e-mail change is confirmed through the mailed link, then waits for an administrator', async ({ page }) => {
  const user = await createUser(admin(), 'newmail');
  const newEmail = `moved-${uniqueSuffix()}@example.test`;
  const assertClean = watchConsole(page);
  await page.goto('/login?redirect=%2Faccount');
  await signIn(page, user.userName, user.password);
  await expect(page).toHaveURL(urlOn('localhost', '/account'));
  await openAccount(page);
  const profile = page.getByRole('region', { name: 'Profile' });

  const before = await mailCount(newEmail);
  await test.step('the change is requested and waits for the new address', async () => {
    await profile.getByRole('button', { name: 'Request a change' }).click();
    await profile.getByLabel('E-mail').fill(newEmail);
    await profile.getByRole('button', { name: 'Send request' }).click();
    await expect(profile.getByText('Request sent. We e-mailed a link to the new address')).toBeVisible();
    const open = profile.getByRole('region', { name: /Your open request/ });
    await expect(open).toContainText('Waiting for you to confirm the new address');
    await expect(open.getByRole('row', { name: /E-mail/ })).toContainText(newEmail);
  });

  const mail = await waitForMail(newEmail, { after: before, subject: /new e-mail address/i });
  const link = linkTo(mail, '/verify-profile-email');

  await test.step('the mailed link confirms the address', async () => {
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Confirm your new e-mail address' })).toBeVisible();
    const confirmed = page.getByRole('status').filter({ hasText: 'Your new e-mail address is confirmed' });
    await expect(confirmed).toBeVisible();
    await expect(confirmed).toContainText('Your change request now waits for an administrator.');
    await page.screenshot({ path: '/tmp/hosted-verify-profile-email.png', fullPage: true, caret: 'initial' });
  });

  await test.step('the request now waits for an administrator, on the account page and for the admins', async () => {
    await page.getByRole('link', { name: 'Go to my account' }).click();
    await expect(page).toHaveURL(urlOn('localhost', '/account'));
    await page.waitForLoadState('networkidle');
    const open = profile.getByRole('region', { name: /Your open request/ });
    await expect(open).toContainText('Waiting for an administrator');
    // The address itself changes only on approval.
    await expect(profile).toContainText(user.email);
    const list = await admin().get(`/api/admin/change-requests?status=Open&search=${encodeURIComponent(user.userName)}`);
    expect(list.status(), await list.text()).toBe(200);
    expect(JSON.stringify(await list.json())).toContain(newEmail);
  });

  await test.step('the link works once', async () => {
    await page.goto(link);
    await expect(page.getByRole('alert').filter({ hasText: 'That did not work' })).toBeVisible();
  });
  assertClean();
});

import { readFileSync } from 'node:fs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { unzip } from '../../lib/testing/unzip';
import { openAccount } from './support/account';
import { ensureAdmin, signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';
import { linkTo, mailCount, waitForMail } from './support/mail';

// A person's privacy rights on /account (spec 3.5, 4.6): "Download my data" saves the ZIP; "Delete
// my account" asks for the password, shows the pending request with a way to cancel it, and the
// mailed link opens the hosted page that confirms, downloads the archive and signs the person out.
const suffix = uniqueSuffix();
const userName = `leaver-${suffix}`;
const email = `${userName}@example.test`;
const password = `leaver-pass-${suffix}`;

test.beforeAll(async () => {
  await ensureAdmin(userName, password);
  // The realm's last administrator may not delete their account: another one stays.
  await ensureAdmin(`keeper-${suffix}`, `keeper-pass-${suffix}`);
});

/** Clicks `button` and answers the archive the browser saved, read back. */
async function savedArchive(page: Page, click: () => Promise<void>): Promise<{ download: Download; entries: ReturnType<typeof unzip> }> {
  const saved = page.waitForEvent('download');
  await click();
  const download = await saved;
  return { download, entries: unzip(readFileSync(await download.path())) };
}

test('the data is downloaded, the account deleted through the mailed link, and the old password signs in no more', async ({ page }) => {
  // One deep walk over four pages, which a development server compiles on first use.
  test.setTimeout(300_000);
  const assertClean = watchConsole(page);
  await page.goto('/login?redirect=%2Faccount');
  await signIn(page, userName, password);
  // The development server may compile the account page first.
  await expect(page).toHaveURL(urlOn('localhost', '/account'), { timeout: 90_000 });
  await openAccount(page);
  const section = page.getByRole('region', { name: 'Your data' });

  await test.step('"Download my data" saves a ZIP with profile.json', async () => {
    const { download, entries } = await savedArchive(page, () => section.getByRole('button', { name: 'Download my data' }).click());
    expect(download.suggestedFilename()).toMatch(/^[a-z0-9-]+-my-data-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(entries.get('profile.json')!.json()).toMatchObject({ UserName: userName, Email: email, HasPassword: true });
    expect([...entries.keys()]).toContain('security-log.json');
    await expect(section.getByText(`Your data was saved as ${download.suggestedFilename()}.`)).toBeVisible();
  });

  await test.step('a deletion asks for the password, then waits for the mailed link, and can be cancelled', async () => {
    await section.getByRole('button', { name: 'Delete my account…' }).click();
    await expect(section.getByText('Enter your password to confirm it is you.')).toBeVisible();
    await section.getByLabel('Your password').fill('not-my-password');
    await section.getByRole('button', { name: 'Delete my account…' }).click();
    await expect(section.getByText('The password is not correct.')).toBeVisible();
    await expect(section.getByLabel('Your password')).toHaveAttribute('aria-invalid', 'true');

    await section.getByLabel('Your password').fill(password);
    await section.getByRole('button', { name: 'Delete my account…' }).click();
    const pending = section.getByRole('status').filter({ hasText: 'Your account is waiting to be deleted' });
    await expect(pending).toContainText(email);
    await page.screenshot({ path: '/tmp/gatehouse-account-privacy-pending.png', fullPage: true });
    await section.getByRole('button', { name: 'Cancel the deletion' }).click();
    await expect(section.getByText('The deletion was cancelled. Your account stays as it is.')).toBeVisible();
    await expect(section.getByRole('button', { name: 'Delete my account…' })).toBeVisible();
  });

  const before = await mailCount(email);
  await test.step('asked again, the account stays usable until the link is confirmed', async () => {
    await section.getByLabel('Your password').fill(password);
    await section.getByRole('button', { name: 'Delete my account…' }).click();
    await expect(section.getByRole('button', { name: 'Cancel the deletion' })).toBeVisible();
    await openAccount(page);
    await expect(section.getByText('Your account is waiting to be deleted')).toBeVisible();
  });

  await test.step('the mailed link confirms on the hosted page: the archive downloads and the account is gone', async () => {
    const mail = await waitForMail(email, { after: before, subject: /deletion/ });
    await page.goto(linkTo(mail, '/confirm-deletion'));
    await expect(page.getByRole('heading', { level: 1, name: 'Delete your account' })).toBeVisible();
    await expect(page.getByText('This cannot be undone.')).toBeVisible();
    const { entries } = await savedArchive(page, () => page.getByRole('button', { name: 'Delete my account and download my data' }).click());
    expect(entries.get('profile.json')!.json()).toMatchObject({ UserName: userName, Email: email });
    await expect(page.getByText('Your account has been deleted')).toBeVisible();
    await page.screenshot({ path: '/tmp/gatehouse-confirm-deletion.png', fullPage: true });
  });

  await test.step('signed out, and the old password no longer signs in', async () => {
    await page.goto('/account');
    await expect(page).toHaveURL(/\/login\?redirect=%2Faccount$/);
    await signIn(page, userName, password);
    await expect(page.locator('form').getByRole('alert')).toContainText('The user name or password is incorrect.');
  });
  assertClean();
});

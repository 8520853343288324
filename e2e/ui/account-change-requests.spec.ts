import { expect, test, type Page } from '@playwright/test';
import { openAccount } from './support/account';
import { ensureAdmin, signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';

// A name change asked for on /account and approved by an administrator in /console/change-requests.
const suffix = uniqueSuffix();
const requester = { userName: `req-${suffix}`, password: `requester-pass-${suffix}` };
const approver = { userName: `appr-${suffix}`, password: `approver-pass-${suffix}` };

test.beforeAll(async () => {
  await ensureAdmin(requester.userName, requester.password);
  await ensureAdmin(approver.userName, approver.password);
});

test('a name change request is sent, approved in the console and shown as decided', async ({ page, browser }) => {
  const assertClean = watchConsole(page);
  await page.goto('/login?redirect=%2Faccount');
  await signIn(page, requester.userName, requester.password);
  await expect(page).toHaveURL(urlOn('localhost', '/account'));
  await openAccount(page);
  const profile = page.getByRole('region', { name: 'Profile' });

  await test.step('the request is sent and shown with its status and a cancel button', async () => {
    await profile.getByRole('button', { name: 'Request a change' }).click();
    await profile.getByLabel('E-mail').fill('not an address');
    await profile.getByRole('button', { name: 'Send request' }).click();
    await expect(profile.getByText('Enter a valid e-mail address.')).toBeVisible();
    await profile.getByLabel('E-mail').fill(`${requester.userName}@example.test`);
    await profile.getByLabel('First name').fill('Ada');
    await profile.getByLabel('Last name').fill(`Lovelace ${suffix}`);
    await profile.getByRole('button', { name: 'Send request' }).click();
    await expect(profile.getByText('Request sent. An administrator will review it.')).toBeVisible();
    const open = profile.getByRole('region', { name: /Your open request/ });
    await expect(open).toContainText('Waiting for an administrator');
    await expect(open.getByRole('row', { name: /Last name/ })).toContainText(`Lovelace ${suffix}`);
    await expect(open.getByRole('button', { name: 'Cancel request' })).toBeVisible();
    await page.screenshot({ path: '/tmp/gatehouse-account-profile-request.png', fullPage: true });
  });

  await test.step('an administrator approves it in the console', async () => {
    const admin = await browser.newPage();
    const assertAdminClean = watchConsole(admin);
    await admin.goto('/login?redirect=%2Fconsole%2Fchange-requests');
    await signIn(admin, approver.userName, approver.password);
    await expect(admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Change requests' })).toHaveAttribute('aria-current', 'page');
    await searchChangeRequests(admin, requester.userName);
    const item = admin.getByRole('listitem').filter({ hasText: requester.userName });
    await expect(item).toHaveCount(1);
    await expect(item.getByRole('row', { name: /Last name/ })).toContainText(`Lovelace ${suffix}`);
    await expect(item.getByRole('row', { name: /First name/ })).toContainText('(empty)');
    await admin.screenshot({ path: '/tmp/gatehouse-console-change-requests.png', fullPage: true });
    await item.getByRole('button', { name: `Approve the request of ${requester.userName}` }).click();
    await expect(admin.getByText(`Approved the request of ${requester.userName}; the profile is updated.`)).toBeVisible();
    await expect(admin.getByRole('listitem').filter({ hasText: requester.userName })).toHaveCount(0);
    assertAdminClean();
    await admin.close();
  });

  await test.step('the account shows the new name and the approved request', async () => {
    await openAccount(page);
    await expect(profile.getByText(`Ada Lovelace ${suffix}`)).toBeVisible();
    const decided = profile.getByRole('region', { name: /Last decided request/ });
    await expect(decided).toContainText('Approved');
    await expect(profile.getByRole('button', { name: 'Request a change' })).toBeVisible();
  });

  await test.step('a second request can be cancelled', async () => {
    await profile.getByRole('button', { name: 'Request a change' }).click();
    await profile.getByLabel('Acronym').fill('AL');
    await profile.getByRole('button', { name: 'Send request' }).click();
    await profile.getByRole('button', { name: 'Cancel request' }).click();
    await expect(profile.getByText('Your request was cancelled.')).toBeVisible();
    await expect(profile.getByRole('button', { name: 'Request a change' })).toBeVisible();
  });

  await test.step('a rejected request shows its reason on the account page', async () => {
    await profile.getByRole('button', { name: 'Request a change' }).click();
    await profile.getByLabel('Acronym').fill('ALX');
    await profile.getByRole('button', { name: 'Send request' }).click();
    await expect(profile.getByRole('region', { name: /Your open request/ })).toBeVisible();
    const admin = await browser.newPage();
    await admin.goto('/login?redirect=%2Fconsole%2Fchange-requests');
    await signIn(admin, approver.userName, approver.password);
    await searchChangeRequests(admin, requester.userName);
    const item = admin.getByRole('listitem').filter({ hasText: requester.userName });
    await item.getByRole('button', { name: `Reject the request of ${requester.userName}` }).click();
    const dialog = admin.getByRole('dialog', { name: `Reject the request of ${requester.userName}?` });
    await dialog.getByLabel(/Reason/).fill('Acronyms have at most two letters here.');
    await dialog.getByRole('button', { name: 'Reject request' }).click();
    await expect(admin.getByText(`Rejected the request of ${requester.userName}.`)).toBeVisible();
    await admin.close();
    await openAccount(page);
    const decided = profile.getByRole('region', { name: /Last decided request/ });
    await expect(decided).toContainText('Rejected');
    await expect(decided).toContainText('Acronyms have at most two letters here.');
  });
  assertClean();
});

/**
 * Searches the console's change requests for `userName` and waits for the answer, so an action on the
 * list is not raced by the list reloading for the search (it applies after a pause in typing). The
 * page is the console's once the sign-in has gone through; text typed before the page hydrated is
 * dropped without a search (seen on a loaded CI machine), so the typing is repeated until the search
 * is sent.
 */
async function searchChangeRequests(admin: Page, userName: string): Promise<void> {
  await expect(admin).toHaveURL(urlOn('localhost', '/console/change-requests'));
  const field = admin.getByLabel('Search change requests');
  await expect(async () => {
    const searched = admin
      .waitForResponse((r) => r.url().includes('/api/admin/change-requests?') && r.url().includes(`search=${userName}`), { timeout: 5_000 })
      .catch(() => null);
    await field.fill('');
    await field.fill(userName);
    expect(await searched, 'the search was sent and answered').not.toBeNull();
  }).toPass({ timeout: 20_000 });
}

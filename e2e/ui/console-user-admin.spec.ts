import { expect, test } from '@playwright/test';
import { addVirtualAuthenticator, openAccount } from './support/account';
import { ensureAdmin, signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';
import { quietDevReloads } from './support/hosted';
import { TotpDevice } from '../shared/totp-device';

// An administrator's day with the console's user administration (spec 4.7): a person who lost the
// phone with their authenticator app and their passkey gets both reset and is signed out
// everywhere (their own browser finds itself signed out); an invite code is minted, copied once and
// revoked; the security log is filtered by that person.
const suffix = uniqueSuffix();
const admin = { userName: `ua-admin-${suffix}`, password: `ua-admin-pass-${suffix}` };
const person = { userName: `ua-person-${suffix}`, email: `ua-person-${suffix}@example.test`, password: `Quiet-lantern-${suffix}-7291!` };
const label = `Welcome ${suffix}`;
const MAIN_APP_ID = '00000000-0000-4000-8000-000000000001';

test.beforeAll(async () => {
  await ensureAdmin(admin.userName, admin.password);
});

test('an administrator resets a person’s second factor and passkeys, signs them out, handles an invite code and reads their log', async ({ page, browser }) => {
  test.slow(); // one long walk over five console pages and the account page
  await quietDevReloads(page.context());
  const assertClean = watchConsole(page);
  await page.goto('/login?redirect=%2Fconsole');
  await signIn(page, admin.userName, admin.password);
  await expect(page).toHaveURL(urlOn('localhost', '/console'));

  let personId = '';
  await test.step('the administrator creates the person', async () => {
    const res = await page.request.post('/api/user', {
      headers: { origin: urlOn('localhost', '') },
      data: { UserName: person.userName, Email: person.email, Password: person.password },
    });
    expect(res.status(), await res.text()).toBe(201);
    personId = ((await res.json()) as { Id: string }).Id;
  });

  // The person's own browser: signed in, with an authenticator app and a passkey.
  const theirs = await browser.newContext();
  await quietDevReloads(theirs);
  const theirPage = await theirs.newPage();
  await test.step('the person enrols an authenticator app and a passkey', async () => {
    await addVirtualAuthenticator(theirPage);
    await theirPage.goto(urlOn('localhost', '/login?redirect=%2Faccount'));
    await signIn(theirPage, person.userName, person.password);
    await expect(theirPage).toHaveURL(urlOn('localhost', '/account'));
    const setup = await theirPage.request.post('/api/account/mfa/setup', { headers: { origin: urlOn('localhost', '') } });
    expect(setup.status(), await setup.text()).toBe(200);
    const device = new TotpDevice(((await setup.json()) as { SharedKey: string }).SharedKey);
    const verify = await theirPage.request.post('/api/account/mfa/verify', {
      headers: { origin: urlOn('localhost', '') },
      data: { Code: await device.code() },
    });
    expect(verify.status(), await verify.text()).toBe(200);
    await openAccount(theirPage);
    const passkeys = theirPage.getByRole('region', { name: 'Passkeys' });
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await passkeys.getByLabel('Passkey name').fill('Lost phone');
    await passkeys.getByRole('button', { name: 'Create passkey' }).click();
    await expect(passkeys.getByText('Passkey “Lost phone” added.')).toBeVisible();
  });

  const security = page.getByRole('region', { name: 'Security', exact: true });
  await test.step('the Security area shows the second factor and the passkey', async () => {
    await page.goto(`/console/users/${personId}`);
    await expect(page.getByRole('heading', { level: 1, name: person.userName })).toBeVisible();
    // The first visit compiles the page's API routes on a development server: give it time.
    await expect(security.getByText('On', { exact: true })).toBeVisible({ timeout: 120_000 });
    await expect(security.getByRole('row').filter({ hasText: 'Lost phone' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Effective access' })).toBeVisible();
  });

  await test.step('reset two-step sign-in, after a confirmation that can be cancelled', async () => {
    await security.getByRole('button', { name: 'Reset two-step sign-in…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset two-step sign-in?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(security.getByText('On', { exact: true })).toBeVisible();
    await security.getByRole('button', { name: 'Reset two-step sign-in…' }).click();
    await dialog.getByRole('button', { name: 'Reset two-step sign-in' }).click();
    await expect(security.getByText('Two-step sign-in was reset. The person was told by e-mail.')).toBeVisible();
    await expect(security.getByText('Off', { exact: true })).toBeVisible();
    await expect(security.getByRole('button', { name: 'Reset two-step sign-in…' })).toBeHidden();
  });

  await test.step('remove all passkeys', async () => {
    await security.getByRole('button', { name: 'Remove all passkeys…' }).click();
    await page.getByRole('dialog', { name: 'Remove all passkeys?' }).getByRole('button', { name: 'Remove all passkeys' }).click();
    await expect(security.getByText('All passkeys were removed. The person was told by e-mail.')).toBeVisible();
    await expect(security.getByRole('row').filter({ hasText: 'Lost phone' })).toBeHidden();
  });

  await test.step('sign the person out everywhere: their browser is signed out', async () => {
    const sessions = page.getByRole('region', { name: 'Sessions' });
    await expect(sessions.getByRole('table', { name: 'Browser sessions' }).getByRole('row')).not.toHaveCount(0);
    await sessions.getByRole('button', { name: 'Sign out everywhere…' }).click();
    await page
      .getByRole('dialog', { name: `Sign ${person.userName} out everywhere?` })
      .getByRole('button', { name: 'Sign out everywhere' })
      .click();
    await expect(sessions.getByText(`${person.userName} was signed out everywhere.`)).toBeVisible();
    await expect(sessions.getByText('Not signed in anywhere.')).toBeVisible();
    await page.screenshot({ path: '/tmp/gatehouse-console-user-admin.png', fullPage: true });
    await theirPage.goto(urlOn('localhost', '/account'));
    await expect(theirPage).toHaveURL(/\/login/);
    // The password alone signs them in again: no second factor is asked for any more.
    await signIn(theirPage, person.userName, person.password);
    await expect(theirPage).toHaveURL(urlOn('localhost', '/account'));
  });
  await theirs.close();

  await test.step('mint an invite code, shown once, and revoke it', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Invite codes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Invite codes' })).toBeVisible();
    const mint = page.getByRole('form', { name: 'New invite codes' });
    await mint.getByLabel('Application').selectOption(MAIN_APP_ID); // the realm's built-in App, named after the realm
    await mint.getByLabel('Label').fill(label);
    await mint.getByRole('button', { name: 'Mint codes' }).click();
    const minted = page.getByTestId('minted-codes');
    await expect(minted.getByText('Copy the code now')).toBeVisible();
    const code = await minted.getByLabel(`Invite code (${label})`).inputValue();
    expect(code.length).toBeGreaterThanOrEqual(16);
    await page.screenshot({ path: '/tmp/gatehouse-console-invite-codes.png', fullPage: true });
    await minted.getByRole('button', { name: 'I have copied the codes' }).click();
    await expect(minted).toBeHidden();
    await expect(page.getByText(code)).toHaveCount(0);

    const row = page.getByRole('row').filter({ hasText: label });
    await expect(row.getByText('Active')).toBeVisible();
    await row.getByRole('button', { name: `Revoke code ${label}` }).click();
    await page.getByRole('dialog', { name: 'Revoke this invite code?' }).getByRole('button', { name: 'Revoke code' }).click();
    await expect(page.getByText(`The code “${label}” was revoked.`, { exact: false })).toBeVisible();
    await expect(row).toBeHidden(); // the list shows active codes
    await page.getByRole('search', { name: 'Filter the codes' }).getByLabel('Status').selectOption('Revoked');
    await expect(row.getByText('Revoked')).toBeVisible();
  });

  await test.step('filter the security log by the person, then by type and day', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Security log' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Security log' })).toBeVisible();
    const filters = page.getByRole('search', { name: 'Filter the log' });
    const lookup = page.waitForResponse((r) => r.url().includes('/api/user/lookup') && r.url().includes(encodeURIComponent(person.userName)));
    await filters.getByLabel('Person').fill(person.userName);
    await lookup;
    await filters.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page.getByText(`Showing what ${person.userName} did and what was done to their account.`)).toBeVisible();
    for (const type of ['user.two-factor-reset', 'user.passkeys-removed', 'user.sessions-revoked', 'auth.login-succeeded']) {
      await expect(page.getByRole('cell', { name: new RegExp(type.replace('.', '\\.')) }).first()).toBeVisible();
    }
    await expect(page.getByRole('cell', { name: /invite\.code-revoked/ })).toHaveCount(0);

    await filters.getByLabel('Event type').fill('user.two-factor-reset');
    await filters.getByLabel('From').fill(new Date().toLocaleDateString('en-CA')); // today, YYYY-MM-DD
    await filters.getByRole('button', { name: 'Filter', exact: true }).click();
    await expect(page.getByRole('cell', { name: /user\.passkeys-removed/ })).toHaveCount(0);
    await expect(page.getByRole('cell', { name: /user\.two-factor-reset/ })).toHaveCount(1);
    await page.screenshot({ path: '/tmp/gatehouse-console-security-log.png', fullPage: true });
  });

  await test.step('the platform audit’s retention is read and changed on its page', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Platform audit' }).click();
    const retention = page.getByRole('region', { name: 'Retention' });
    const days = retention.getByLabel('Keep entries for (days)');
    await expect(days).toHaveValue('365', { timeout: 60_000 });
    await days.fill('0');
    await retention.getByRole('button', { name: 'Save retention' }).click();
    await expect(retention.getByText('Use at least 1.')).toBeVisible();
    await days.fill('400');
    await retention.getByRole('button', { name: 'Save retention' }).click();
    await expect(retention.getByText('Retention saved. The next purge applies it.')).toBeVisible();
    await page.reload();
    await expect(days).toHaveValue('400');
    await days.fill('365');
    await retention.getByRole('button', { name: 'Save retention' }).click();
    await expect(retention.getByText('Retention saved. The next purge applies it.')).toBeVisible();
  });

  await test.step('the person’s page links to their log entries', async () => {
    await page.goto(`/console/users/${personId}`);
    await security.getByRole('link', { name: 'Security log entries' }).click();
    await expect(page.getByRole('search', { name: 'Filter the log' }).getByLabel('Person')).toHaveValue(person.userName);
    await expect(page.getByRole('cell', { name: /user\.sessions-revoked/ })).toBeVisible();
  });
  assertClean();
});

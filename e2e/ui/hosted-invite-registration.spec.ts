import { expect, test, type APIRequestContext } from '@playwright/test';
import { uniqueSuffix, watchConsole } from './support/env';
import {
  controlPlaneAdmin,
  createRealm,
  expectSignedInAs,
  patchRealmSettings,
  quietDevReloads,
  realmAdmin,
  strongPassword,
  type TestRealm,
} from './support/hosted';
import { linkTo, mailCount, waitForMail } from './support/mail';

// Registration that needs an invite code (spec 2.5, issue 3 item 6) on a realm of its own: an
// administrator mints a code for the built-in App, the visitor signs up with it on /register, the
// mailed link creates the account and signs them in; a wrong code is refused at its field.

let cpAdmin: APIRequestContext;
let realm: TestRealm;
let admin: APIRequestContext;

test.beforeAll(async () => {
  cpAdmin = await controlPlaneAdmin();
  realm = await createRealm(cpAdmin, 'inv');
  await patchRealmSettings(realm, { SelfRegistration: { Posture: 'ExplicitEndpoint', RequireInviteCode: true } });
  admin = await realmAdmin(realm);
});

test.afterAll(async () => {
  await admin?.dispose();
  await cpAdmin?.dispose();
});

test.beforeEach(async ({ context }) => {
  await quietDevReloads(context);
});

async function mintCode(): Promise<{ Id: string; Code: string }> {
  const res = await admin.post('/api/app/gatehouse/invite-codes', { data: { Label: 'browser test' } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { Id: string; Code: string };
}

test('sign-up with an invite code: a wrong code is refused at the field, the right one leads to an account', async ({ page }) => {
  const invite = await mintCode();
  const email = `invited-${uniqueSuffix()}@example.test`;
  const password = strongPassword();
  const assertClean = watchConsole(page);

  await page.goto(`${realm.origin}/register?redirect=%2Faccount`);
  const code = page.getByLabel('Invite code');
  await expect(code).toBeVisible();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);

  await test.step('no code: asked for one at the field before anything is sent', async () => {
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(code).toHaveAccessibleDescription(/Enter your invite code\./);
  });

  await test.step('a wrong code: the server refuses it and the error sits next to the field', async () => {
    await code.fill('ABCD-EFGH-JKMN-PQRS-TVWX-YZ01-2345');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(code).toHaveAccessibleDescription(/The invite code is invalid, used or expired\./);
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Check your mail')).toHaveCount(0);
    await page.screenshot({ path: '/tmp/hosted-register-invite-error.png', fullPage: true, caret: 'initial' });
  });

  const before = await mailCount(email);
  await test.step('the right code: the link is mailed', async () => {
    // Typed loosely (lower case, spaces): codes are compared in their canonical form.
    await code.fill(` ${invite.Code.toLowerCase()} `);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Check your mail')).toBeVisible();
  });

  await test.step('the mailed link creates the account and signs in', async () => {
    const mail = await waitForMail(email, { after: before, subject: /confirm/i });
    await page.goto(linkTo(mail, '/register/verify'));
    await expect(page).toHaveURL(`${realm.origin}/account`);
    await expectSignedInAs(page, email);
  });

  await test.step('the code is used up by the new account', async () => {
    const used = await admin.get('/api/app/gatehouse/invite-codes?status=Used');
    expect(used.status()).toBe(200);
    const body = (await used.json()) as { items: { Id: string }[] };
    expect(body.items.map((c) => c.Id)).toContain(invite.Id);
  });
  assertClean();
});

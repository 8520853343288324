import { X509Certificate } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { startSimpleSamlIdp, type SimpleSamlIdp } from '../shared/peers/simplesamlphp';
import { PORT, signIn, watchConsole } from './support/env';
import { createRealm, createRealmUser, expectSignedInAs, realmAdmin, useControlPlaneAdmin, type TestRealm } from './support/hosted';

// SAML sign-in in Chromium against SimpleSAMLphp from Debian's packages (issue 10): the button on the
// hosted sign-in page, the IdP's own login form, its auto-submitting post to our ACS, and the
// signed-in account page; the person is created just in time. And linking from the account page
// (issue 30 item 6): the Link button, the IdP, the confirmation page naming the IdP account, linked.

const cpAdmin = useControlPlaneAdmin();
let idp: SimpleSamlIdp;
let realm: TestRealm;

test.beforeAll(async () => {
  idp = await startSimpleSamlIdp({ sps: [] });
  realm = await createRealm(cpAdmin(), 'saml');
  const admin = await realmAdmin(realm);
  try {
    const created = await admin.post('/api/admin/login-providers', {
      data: { Name: 'Campus IdP', Flavor: 'Saml', Slug: 'campus', Saml: { IdpMetadataXml: idp.metadataXml } },
    });
    expect(created.status(), await created.text()).toBe(201);
    const metadata = await (await admin.get('/saml/campus/sp-metadata')).text();
    const b64 = /<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata)![1].replace(/\s+/g, '');
    const entityId = `http://${realm.host}:${PORT}/saml/campus`;
    await idp.addSp({ entityId, acsUrl: `${entityId}/acs`, certificatePem: new X509Certificate(Buffer.from(b64, 'base64')).toString() });
  } finally {
    await admin.dispose();
  }
});

test.afterAll(async () => {
  await idp?.stop();
});

test('from the "Continue with" button through the IdP’s form to the signed-in account page', async ({ page }) => {
  const assertClean = watchConsole(page);
  await page.goto(`${realm.origin}/login?redirect=%2Faccount`);
  const button = page.getByRole('link', { name: 'Continue with Campus IdP' });
  await expect(button).toBeVisible();
  await button.click();

  // SimpleSAMLphp's own login page, on its own origin.
  await expect(page).toHaveURL(new RegExp(`^${idp.baseUrl.replace(/[/.]/g, '\\$&')}`));
  await page.locator('input[name="username"]').fill('alice');
  await page.locator('input[name="password"]').fill('alice-Idp-pw1');
  await page.locator('input[name="password"]').press('Enter');

  // Its page posts the signed response to our ACS; we land signed in where we started for.
  await expect(page).toHaveURL(`${realm.origin}/account`, { timeout: 20_000 });
  await expectSignedInAs(page, 'alice@idp.example');
  await page.screenshot({ path: '/tmp/saml-signed-in.png', fullPage: true, caret: 'initial' });
  assertClean();
});

test('links the IdP account from the account page after a confirmation that names it', async ({ page }) => {
  const assertClean = watchConsole(page);
  const person = await createRealmUser(realm, 'linker');
  await page.goto(`${realm.origin}/login?redirect=%2Faccount`);
  await signIn(page, person.userName, person.password);
  await expect(page).toHaveURL(`${realm.origin}/account`);
  const section = page.getByRole('region', { name: 'Linked accounts' });
  await section.getByRole('button', { name: 'Link Campus IdP' }).click();

  await expect(page).toHaveURL(new RegExp(`^${idp.baseUrl.replace(/[/.]/g, '\\$&')}`));
  await page.locator('input[name="username"]').fill('bob');
  await page.locator('input[name="password"]').fill('bob-Idp-pw2');
  await page.locator('input[name="password"]').press('Enter');

  // The IdP's cross-site post comes back to a question, not to a link.
  await expect(page).toHaveURL(`${realm.origin}/account/link`, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: `Link bob@idp.example at Campus IdP to your account ${person.userName}?` })).toBeVisible();
  await page.screenshot({ path: '/tmp/account-link-confirm.png', fullPage: true, caret: 'initial' });
  await page.getByRole('button', { name: 'Link Campus IdP account' }).click();

  await expect(page).toHaveURL(`${realm.origin}/account#linked-accounts`);
  await expect(section.getByRole('row').filter({ hasText: 'Campus IdP' })).toBeVisible();
  await expectSignedInAs(page, person.userName);
  assertClean();
});

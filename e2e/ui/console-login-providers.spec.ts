import { expect, test, type Page } from '@playwright/test';
import { signIn, uniqueSuffix, watchConsole } from './support/env';
import { createRealm, realmAdmin, useControlPlaneAdmin } from './support/hosted';

// Login providers through the console of a realm of its own (issue 10 point 7): an LDAP and an OIDC
// provider made with the flavor forms, their write-only secrets, the addresses for the upstream, a
// connection test, edit and delete; then the realm's sign-in page offers the OIDC provider. The
// upstreams are not contacted here (the sign-in journeys through real ones are other specs).

const cpAdmin = useControlPlaneAdmin();

/** Picks a flavor on the create page and fills the common fields. */
async function startProvider(page: Page, flavorLabel: string, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Login providers' }).click();
  await page.getByRole('link', { name: 'New login provider' }).click();
  await page.getByRole('radio', { name: new RegExp(flavorLabel) }).check();
  await page.getByLabel('Name', { exact: true }).fill(name);
}

test('an administrator sets up LDAP and OIDC login providers; the sign-in page offers the OIDC one', async ({ page, browser }) => {
  // One journey through six console and hosted pages (each compiled on first use in development).
  test.slow();
  const realm = await createRealm(cpAdmin(), 'lp');
  const suffix = uniqueSuffix();
  const groupName = `jit-${suffix}`;
  const api = await realmAdmin(realm);
  const group = await api.post('/api/group', { data: { Name: groupName } });
  expect(group.status(), await group.text()).toBe(201);
  await api.dispose();

  const assertClean = watchConsole(page);
  await page.goto(`${realm.origin}/login?redirect=%2Fconsole`);
  await signIn(page, realm.admin.userName, realm.admin.password);
  await expect(page).toHaveURL(`${realm.origin}/console`);

  await test.step('the built-in provider is listed, read-only', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Login providers' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Login providers' })).toBeVisible();
    const builtIn = page.getByRole('row').filter({ hasText: 'Built in' });
    await expect(builtIn).toContainText('Local accounts');
    await builtIn.getByRole('link').click();
    await expect(page.getByText('It cannot be changed or deleted')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Delete…' })).toHaveCount(0);
  });

  const ldapSecret = `bind-${suffix}-Secret!`;
  await test.step('create an LDAP provider: the API schema speaks at the field, then it is saved', async () => {
    await startProvider(page, 'LDAP directory', 'Corp directory');
    await page.getByLabel('Directory URL').fill('ldap://127.0.0.1:1');
    await page.getByLabel('Bind DN').fill('cn=gatehouse,dc=example,dc=test');
    await page.getByLabel('User search base').fill('ou=people,dc=example,dc=test');
    await page.getByLabel('User search filter').fill('uid=x');
    await page.getByRole('button', { name: 'Create provider' }).click();
    await expect(page.getByLabel('User search filter')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('A filter in parentheses that contains {username}.')).toBeVisible();
    await page.getByLabel('User search filter').fill('(mail={username})');
    await page.getByRole('checkbox', { name: groupName }).check();
    await page.getByRole('button', { name: 'Create provider' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Corp directory' })).toBeVisible();
    await expect(page.getByText('Login provider created.')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: groupName })).toBeChecked();
  });

  await test.step('set the bind password: "set", and the value is never shown again', async () => {
    await expect(page.getByTestId('secret-state')).toHaveText('not set');
    await page.getByLabel('Bind password').fill(ldapSecret);
    await page.getByRole('button', { name: 'Set bind password' }).click();
    await expect(page.getByTestId('secret-state')).toHaveText('set');
    await expect(page.getByLabel('New bind password')).toHaveValue('');
    await page.reload();
    await expect(page.getByTestId('secret-state')).toHaveText('set');
    expect(await page.content()).not.toContain(ldapSecret);
  });

  await test.step('test connection answers with the reason', async () => {
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByText('The connection failed.')).toBeVisible();
  });

  await test.step('edit: the new name is stored', async () => {
    await page.getByLabel('Name', { exact: true }).fill('Corp LDAP');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Changes saved.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Corp LDAP' })).toBeVisible();
    await expect(page.getByLabel('User search filter')).toHaveValue('(mail={username})');
  });

  let oidcId = '';
  await test.step('create an OIDC provider: its callback URL is shown for copying', async () => {
    await startProvider(page, 'OpenID Connect', 'Acme SSO');
    await page.getByLabel('Issuer (Authority)').fill('https://idp.acme.test');
    await page.getByLabel('Client ID').fill(`gatehouse-${suffix}`);
    await page.getByRole('button', { name: 'Create provider' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Acme SSO' })).toBeVisible();
    oidcId = new URL(page.url()).pathname.split('/').pop() ?? '';
    const callback = page.getByLabel('Callback URL (redirect URI)');
    await expect(callback).toHaveValue(new RegExp(`^https?://${realm.host}(:\\d+)?/api/account/external-login/finish$`));
    await expect(page.getByRole('region', { name: 'For the identity provider' }).getByRole('button', { name: 'Copy' })).toBeVisible();

    const clientSecret = `client-${suffix}-Secret`;
    await page.getByLabel('Client secret').fill(clientSecret);
    await page.getByRole('button', { name: 'Set client secret' }).click();
    await expect(page.getByTestId('secret-state')).toHaveText('set');
    expect(await page.content()).not.toContain(clientSecret);
    await page.screenshot({ path: '/tmp/console-login-provider-oidc.png', fullPage: true, caret: 'initial' });
  });

  await test.step('the list shows both, with their secrets set', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Login providers' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Corp LDAP' })).toContainText('LDAP directory');
    await expect(page.getByRole('row').filter({ hasText: 'Corp LDAP' })).toContainText('Set');
    await expect(page.getByRole('row').filter({ hasText: 'Acme SSO' })).toContainText('OpenID Connect');
  });

  await test.step('delete the LDAP provider after confirmation', async () => {
    await page.getByRole('link', { name: 'Corp LDAP' }).click();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete login provider' }).click();
    await expect(page).toHaveURL(`${realm.origin}/console/login-providers`);
    await expect(page.getByRole('row').filter({ hasText: 'Acme SSO' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'Corp LDAP' })).toHaveCount(0);
  });

  await test.step('the account page offers to link the OIDC provider', async () => {
    await page.goto(`${realm.origin}/account`);
    const section = page.getByRole('region', { name: 'Linked accounts' });
    await expect(section.getByText('No account of another provider is linked.')).toBeVisible();
    // Linking is a button that POSTs the intent, never a link to the sign-in start (issue 30 item 6;
    // the journey itself, with a real upstream, is e2e/api/external-identity/linking.test.ts).
    await expect(section.getByRole('button', { name: 'Link Acme SSO' })).toBeVisible();
    await expect(section.locator(`a[href*="/api/account/external-login/${oidcId}/start"]`)).toHaveCount(0);
  });
  assertClean();

  await test.step("the realm's sign-in page shows the OIDC button with the continuation, and the failure notices", async () => {
    const visitor = await browser.newContext();
    const anon = await visitor.newPage();
    const back = '/connect/authorize?client_id=x&response_type=code';
    await anon.goto(`${realm.origin}/login?redirect=${encodeURIComponent(back)}`);
    const button = anon.getByRole('link', { name: 'Continue with Acme SSO' });
    await expect(button).toHaveAttribute('href', `/api/account/external-login/${oidcId}/start?returnUrl=${encodeURIComponent(back)}`);
    await expect(anon.getByRole('link', { name: /Corp/ })).toHaveCount(0);
    await anon.screenshot({ path: '/tmp/hosted-login-external.png', fullPage: true, caret: 'initial' });
    await anon.goto(`${realm.origin}/login?error=external-unavailable`);
    await expect(anon.getByText('The identity provider cannot be reached')).toBeVisible();
    await visitor.close();
  });
});

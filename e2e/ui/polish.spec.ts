import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { ensureAdmin, signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';
import { leaveAndSignOut, quietDevReloads } from './support/hosted';

// What people using the console and the hosted pages ran into (issue 11, item 7): wide tables at a
// 1280 px window, confirmations before deleting, the realm page's sign-in address and its
// deactivate/delete wording, a used invite link, and end users kept out of the admin shell.
const suffix = uniqueSuffix();
const admin = `polish-admin-${suffix}`;
const password = `polish-admin-pass-${suffix}`;
const ORIGIN = { origin: urlOn('localhost', '') };

test.beforeAll(async () => {
  await ensureAdmin(admin, password);
});
test.beforeEach(async ({ context }) => {
  await quietDevReloads(context);
});
// Long walks: a development server compiles every page on first use.
test.describe.configure({ timeout: 600_000 });

async function post(request: APIRequestContext, path: string, data: unknown): Promise<{ Id: string } & Record<string, unknown>> {
  const res = await request.post(urlOn('localhost', path), { headers: ORIGIN, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()) as { Id: string } & Record<string, unknown>;
}

/**
 * Every button in the table's rows can be clicked where it is: in the window, inside the table's box
 * as it first shows (not scrolled sideways), and not covered by anything. Only the page scrolls,
 * up and down, the way a person would.
 */
async function expectRowActionsReachable(page: Page, table: Locator): Promise<number> {
  const actions = table.locator('tbody').getByRole('button');
  const count = await actions.count();
  for (let i = 0; i < count; i++) {
    const problem = await actions.nth(i).evaluate((el) => {
      const wrap = el.closest('.table-wrap');
      if (wrap) wrap.scrollLeft = 0;
      window.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 2);
      const r = el.getBoundingClientRect();
      const box = wrap?.getBoundingClientRect() ?? { left: 0, right: window.innerWidth };
      if (r.left < 0 || r.right > window.innerWidth) return `outside the window (${Math.round(r.left)}–${Math.round(r.right)} px)`;
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) return `clipped by the table's box (${Math.round(r.right)} > ${Math.round(box.right)} px)`;
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!at || !(at === el || el.contains(at))) return 'covered by something else';
      return null;
    });
    expect(problem, `"${await actions.nth(i).innerText()}" in row action ${i}`).toBeNull();
  }
  return count;
}

/** The page does not scroll sideways: nothing was pushed out of the 1280 px window. */
async function expectNoPageSideways(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

/** The table fits its card: nothing to scroll sideways to find. */
async function expectNoSidewaysScroll(table: Locator): Promise<void> {
  const overflow = await table.evaluate((el) => {
    const wrap = el.closest('.table-wrap') ?? el.parentElement!;
    return wrap.scrollWidth - wrap.clientWidth;
  });
  expect(overflow).toBeLessThanOrEqual(1);
}

test('wide console tables keep their actions on a 1280 px window', async ({ page }) => {
  const assertClean = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/login?redirect=%2Fconsole');
  await signIn(page, admin, password);
  await expect(page).toHaveURL(urlOn('localhost', '/console'));
  const request = page.request;
  const long = (s: string, n: number) => `${s}-${'x'.repeat(n)}`.slice(0, n);

  // Long names, many grants and memberships: the widest rows these lists can show.
  const user = await post(request, '/api/user', {
    UserName: long(`wide-user-${suffix}`, 60),
    Email: `${long(`wide-user-${suffix}`, 60)}@a-very-long-subdomain.example.test`,
    Firstname: long('Maximiliane', 40),
    Lastname: long('Oberhausen-Wittgenstein', 40),
  });
  const groups: string[] = [];
  for (let i = 0; i < 3; i++) {
    const g = await post(request, '/api/group', { Name: long(`Wide group ${i} ${suffix}`, 90), Description: 'd'.repeat(300), BoundTo: ['*'] });
    groups.push(g.Id);
    await post(request, `/api/user/${user.Id}/groups`, { GroupId: g.Id });
  }
  await post(request, '/api/role', {
    Name: long(`Wide role ${suffix}`, 90),
    AppId: '00000000-0000-4000-8000-000000000001',
    Permissions: ['user:read', 'user:write', 'authorization-group:read', 'permission-role:read', 'oauth-client:read', 'service-account:read'],
  });
  await post(request, '/api/admin/oauth/clients', {
    ClientId: long(`wide-client-${suffix}`, 150),
    DisplayName: long(`Wide client ${suffix}`, 150),
    ClientType: 'Confidential',
    GrantTypes: ['client_credentials', 'authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
    RedirectUris: ['https://app.example.test/callback'],
    Scopes: ['openid'],
  });
  const account = await post(request, '/api/service-account', { Name: long(`wide-account-${suffix}`, 100), Description: 'd'.repeat(300), GroupIds: groups });
  for (let i = 0; i < 2; i++) {
    await post(request, `/api/service-account/${account.Id}/credentials`, { DisplayName: long(`Wide credential ${i} ${suffix}`, 100), Scopes: ['openid'] });
  }

  const lists: { path: string; heading: string }[] = [
    { path: '/console/users', heading: 'Users' },
    { path: '/console/groups', heading: 'Groups' },
    { path: '/console/roles', heading: 'Roles' },
    { path: '/console/oauth/clients', heading: 'OAuth clients' },
    { path: '/console/service-accounts', heading: 'Service accounts' },
    { path: '/console/login-providers', heading: 'Login providers' },
    { path: '/console/realms', heading: 'Realms' },
  ];
  for (const list of lists) {
    await test.step(`${list.heading}: the table fits the window`, async () => {
      await page.goto(`${list.path}?search=${encodeURIComponent(suffix)}`);
      await expect(page.getByRole('heading', { level: 1, name: list.heading })).toBeVisible();
      const table = page.getByRole('table').first();
      await expect(table).toBeVisible();
      await expectNoSidewaysScroll(table);
      await expectRowActionsReachable(page, table);
      await expectNoPageSideways(page);
    });
  }

  await test.step("a user's memberships: every Remove button is reachable", async () => {
    await page.goto(`/console/users/${user.Id}`);
    const table = page.getByRole('table').filter({ hasText: 'Membership' });
    await expect(table.getByRole('button', { name: /Remove/ }).first()).toBeVisible();
    expect(await expectRowActionsReachable(page, table)).toBeGreaterThanOrEqual(3);
    await expectNoPageSideways(page);
    await page.screenshot({ path: '/tmp/polish-user-groups-1280.png', fullPage: true, caret: 'initial' });
  });

  await test.step("a service account's credentials: every action is reachable", async () => {
    await page.goto(`/console/service-accounts/${account.Id}`);
    const table = page.getByRole('table').filter({ hasText: 'Credential' });
    await expect(table.getByRole('button').first()).toBeVisible();
    expect(await expectRowActionsReachable(page, table)).toBeGreaterThanOrEqual(2);
    await expectNoPageSideways(page);
    await page.screenshot({ path: '/tmp/polish-credentials-1280.png', fullPage: true, caret: 'initial' });
  });
  assertClean();
});

test('the realm page gives the whole sign-in address and tells deactivating from deleting; a used invite link says so first', async ({ page, browser }) => {
  const assertClean = watchConsole(page);
  const slug = `polish-${suffix}`;
  const host = `${slug}.localhost`;
  await page.goto('/login?redirect=%2Fconsole%2Frealms');
  await signIn(page, admin, password);
  await expect(page.getByRole('heading', { level: 1, name: 'Realms' })).toBeVisible();
  const created = await post(page.request, '/api/admin/realms', {
    Slug: slug,
    DisplayName: `Polish ${suffix}`,
    Domains: [host],
    InitialAdmin: { UserName: 'polish-owner', Email: `owner-${suffix}@example.test` },
  });
  const invite = (created.InitialAdminInvite as { MagicLinkUrl: string }).MagicLinkUrl;

  await test.step('the sign-in address carries the scheme and the public port', async () => {
    await page.goto(`/console/realms/${slug}`);
    await expect(page.getByRole('heading', { level: 1, name: `Polish ${suffix}` })).toBeVisible();
    await expect(page.getByLabel('Sign-in page')).toHaveValue(urlOn(host, '/login'));
  });

  await test.step('deactivating keeps the data and can be undone; deleting is explained apart', async () => {
    const status = page.getByRole('region', { name: 'Status' });
    await expect(status).toContainText('All its data is kept, and you can activate it again at any time.');
    const danger = page.getByRole('region', { name: 'Delete the realm' });
    await expect(danger).toContainText('keeps its data, like deactivating: it can be activated again');
    await expect(danger).toContainText('This cannot be undone.');
    await expect(danger.getByRole('button', { name: 'Delete…', exact: true })).toBeVisible();
    await expect(danger.getByRole('button', { name: 'Delete permanently…' })).toBeVisible();
    await page.screenshot({ path: '/tmp/polish-realm-page.png', fullPage: true, caret: 'initial' });
  });

  await test.step('an unknown invite token is refused before any password is asked for', async () => {
    await page.goto(urlOn(host, '/bootstrap?token=not-a-real-token'));
    await expect(page.getByText('This invite link is invalid or has expired')).toBeVisible();
    await expect(page.getByLabel('New password')).toHaveCount(0);
  });

  await test.step('the invite sets the password once; opened again it says it was used, with no form', async () => {
    const context = await browser.newContext();
    await quietDevReloads(context);
    const owner = await context.newPage();
    await owner.goto(invite);
    await owner.getByLabel('New password').fill(`owner-pass-${suffix}`);
    await owner.getByLabel('Repeat the password').fill(`owner-pass-${suffix}`);
    await owner.getByRole('button', { name: 'Set password and continue' }).click();
    await expect(owner).toHaveURL(urlOn(host, '/console'));
    await context.close();

    await page.goto(invite);
    await expect(page.getByText('This invite link has already been used')).toBeVisible();
    await expect(page.getByLabel('New password')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Set password and continue' })).toHaveCount(0);
    await page.screenshot({ path: '/tmp/polish-used-invite.png', fullPage: true, caret: 'initial' });
  });
  assertClean();
});

test('deleting a group, a role or an OAuth client asks first, naming it', async ({ page }) => {
  const assertClean = watchConsole(page);
  await page.goto('/login?redirect=%2Fconsole');
  await signIn(page, admin, password);
  await expect(page).toHaveURL(urlOn('localhost', '/console'));
  const group = await post(page.request, '/api/group', { Name: `Doomed group ${suffix}` });
  const role = await post(page.request, '/api/role', {
    Name: `Doomed role ${suffix}`,
    AppId: '00000000-0000-4000-8000-000000000001',
    Permissions: ['user:read'],
  });
  const client = await post(page.request, '/api/admin/oauth/clients', {
    DisplayName: `Doomed client ${suffix}`,
    ClientType: 'Confidential',
    GrantTypes: ['client_credentials'],
    Scopes: ['openid'],
  });
  const things = [
    { what: 'group', name: `Doomed group ${suffix}`, page: `/console/groups/${group.Id}`, list: '/console/groups', api: `/api/group/${group.Id}` },
    { what: 'role', name: `Doomed role ${suffix}`, page: `/console/roles/${role.Id}`, list: '/console/roles', api: `/api/role/${role.Id}` },
    {
      what: 'client',
      name: `Doomed client ${suffix}`,
      page: `/console/oauth/clients/${client.Id}`,
      list: '/console/oauth/clients',
      api: `/api/admin/oauth/clients/${client.Id}`,
    },
  ];
  await test.step('a form says what is wrong in words, not in the validator’s terms', async () => {
    await page.goto('/console/groups/new');
    await page.getByLabel('Name').fill('n'.repeat(201));
    await page.getByRole('button', { name: 'Create group' }).click();
    await expect(page.getByText('Use at most 200 characters.')).toBeVisible();
    await expect(page.getByText(/Too big|expected string/)).toHaveCount(0);
  });

  for (const thing of things) {
    await test.step(`the ${thing.what}: cancel keeps it, confirming deletes it`, async () => {
      await page.goto(thing.page);
      await expect(page.getByRole('heading', { level: 1, name: thing.name })).toBeVisible();
      await page
        .getByRole('region', { name: `Delete ${thing.what}` })
        .getByRole('button', { name: 'Delete…' })
        .click();
      const dialog = page.getByRole('dialog', { name: `Delete ${thing.what} “${thing.name}”?` });
      await expect(dialog).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      expect((await page.request.get(urlOn('localhost', thing.api))).status()).toBe(200);

      await page
        .getByRole('region', { name: `Delete ${thing.what}` })
        .getByRole('button', { name: 'Delete…' })
        .click();
      await dialog.getByRole('button', { name: `Delete ${thing.what}` }).click();
      await expect(page).toHaveURL(urlOn('localhost', thing.list));
      expect((await page.request.get(urlOn('localhost', thing.api))).status()).toBe(404);
    });
  }
  assertClean();
});

test('someone who administers nothing sees only their account, never the console', async ({ page }) => {
  const assertClean = watchConsole(page);
  const userName = `end-user-${suffix}`;
  const userPassword = `end-user-pass-${suffix}`;
  await page.goto('/login?redirect=%2Fconsole');
  await signIn(page, admin, password);
  await expect(page).toHaveURL(urlOn('localhost', '/console'));
  await post(page.request, '/api/user', { UserName: userName, Email: `${userName}@example.test`, Password: userPassword, EmailConfirmed: true });
  // Leaving the console first also keeps its live connection, still being set up, from meeting the
  // cleared cookie (a refused WebSocket upgrade, which the browser logs as an error).
  await leaveAndSignOut(page);

  await test.step('signing in towards a console page lands in the account area', async () => {
    await page.goto('/login?redirect=%2Fconsole%2Fusers');
    await signIn(page, userName, userPassword);
    await expect(page).toHaveURL(urlOn('localhost', '/account'));
    await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  });

  await test.step('the account area shows no console navigation', async () => {
    await expect(page.getByRole('navigation', { name: 'Console' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Overview' })).toHaveCount(0);
    await expect(page.getByRole('banner').getByRole('link').first()).toHaveAttribute('href', '/account');
    await page.screenshot({ path: '/tmp/polish-end-user-account.png', fullPage: true, caret: 'initial' });
  });

  await test.step('every console address, and the start page, leads back to the account', async () => {
    for (const path of ['/console', '/console/groups', '/console/realms', '/']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(urlOn('localhost', '/account'));
    }
  });
  assertClean();
});

import { expect, test, type Page } from '@playwright/test';
import { ensureAdmin, signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';
import { quietDevReloads } from './support/hosted';

// The console refreshes live (issue 13, docs/realtime.md "The console"): two browsers signed in as
// the same administrator; what one changes, the other's open pages show without a reload. Browser A
// has the Users list and, in a second tab, a user's detail page open; browser B changes things
// through the API with its own session cookie, and at last ends A's session, which the hub notices.
const suffix = uniqueSuffix();
const admin = { userName: `live-admin-${suffix}`, password: `live-admin-pass-${suffix}` };
const person = { userName: `live-person-${suffix}`, email: `live-person-${suffix}@example.test` };
const origin = { origin: urlOn('localhost', '') };

test.beforeAll(async () => {
  await ensureAdmin(admin.userName, admin.password);
});

/** Opens `path` on a console page and waits for its hub WebSocket and the Live indicator. */
async function openLive(page: Page, path: string): Promise<void> {
  const socket = page.waitForEvent('websocket', { predicate: (ws) => ws.url().includes('/signalr/ui'), timeout: 120_000 });
  await page.goto(path);
  // Same-origin ws: passes the CSP's connect-src 'self': the client used WebSockets, not a fallback.
  await socket;
  await expect(page.getByRole('status', { name: 'Live updates: Live' })).toBeVisible({ timeout: 60_000 });
}

test('a change in one browser shows in the other’s open list and detail page without a reload', async ({ page, browser }) => {
  test.slow(); // a development server compiles the console pages and the hub on first use
  await quietDevReloads(page.context());
  const assertClean = watchConsole(page);
  await page.goto('/login?redirect=%2Fconsole%2Fusers');
  await signIn(page, admin.userName, admin.password);
  await expect(page).toHaveURL(urlOn('localhost', '/console/users'));
  await openLive(page, '/console/users');
  await expect(page.getByRole('row').filter({ hasText: admin.userName })).toBeVisible({ timeout: 60_000 });

  // Browser B: the same administrator, signed in with a session (and cookie) of its own.
  const other = await browser.newContext();
  await quietDevReloads(other);
  const theirs = await other.newPage();
  await theirs.goto(urlOn('localhost', '/login?redirect=%2Fconsole'));
  await signIn(theirs, admin.userName, admin.password);
  await expect(theirs).toHaveURL(urlOn('localhost', '/console'));

  let personId = '';
  await test.step('a user created in B appears in A’s list', async () => {
    const res = await theirs.request.post('/api/user', { headers: origin, data: { UserName: person.userName, Email: person.email } });
    expect(res.status(), await res.text()).toBe(201);
    personId = ((await res.json()) as { Id: string }).Id;
    await expect(page.getByRole('row').filter({ hasText: person.userName })).toBeVisible();
  });

  const detail = await page.context().newPage();
  const assertDetailClean = watchConsole(detail);
  await test.step('A’s detail page with unsaved edits says a change in B happened, and keeps the edits', async () => {
    await openLive(detail, `/console/users/${personId}`);
    await expect(detail.getByRole('heading', { level: 1, name: person.userName })).toBeVisible();
    const firstName = detail.getByLabel('First name');
    await firstName.fill('Mine');
    const res = await theirs.request.put(`/api/user/${personId}`, { headers: origin, data: { Lastname: 'Theirs' } });
    expect(res.status(), await res.text()).toBe(200);
    await expect(detail.getByText('This user was changed elsewhere — reload to see the latest.')).toBeVisible();
    await expect(firstName).toHaveValue('Mine');
  });

  await test.step('a user deleted in B leaves A’s list, and A’s open detail page says so', async () => {
    const res = await theirs.request.delete(`/api/user/${personId}`, { headers: origin });
    expect(res.status(), await res.text()).toBeLessThan(300);
    await expect(page.getByRole('row').filter({ hasText: person.userName })).toBeHidden();
    const notice = detail.getByRole('status').filter({ hasText: 'This user was deleted elsewhere.' });
    await expect(notice).toBeVisible();
    await notice.getByRole('link', { name: 'Back to Users' }).click();
    await expect(detail).toHaveURL(urlOn('localhost', '/console/users'));
  });

  await expect(page.getByRole('status', { name: 'Live updates: Live' })).toBeVisible();

  await test.step('B ends its other sessions: A’s console, its session gone, goes to sign-in by itself', async () => {
    const res = await theirs.request.delete('/api/auth/sessions/others', { headers: origin });
    expect(res.status(), await res.text()).toBeLessThan(300);
    await expect(page).toHaveURL(/\/login\?redirect=%2Fconsole%2Fusers$/);
  });

  await other.close();
  assertClean();
  assertDetailClean();
});

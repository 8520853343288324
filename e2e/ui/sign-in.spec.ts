import { expect, test } from '@playwright/test';
import { ensureAdmin, signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';

const suffix = uniqueSuffix();
const userName = `signin-${suffix}`;
const password = `correct-horse-${suffix}`;

test.beforeAll(async () => {
  await ensureAdmin(userName, password);
});

test('a wrong password shows an error at the form and keeps the visitor on the page', async ({ page }) => {
  const assertClean = watchConsole(page);
  await page.goto('/login');
  // caret: 'initial': hiding the caret edits the DOM, which could race React's hydration.
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: '/tmp/gatehouse-login.png', fullPage: true, caret: 'initial' });
  await signIn(page, userName, 'not-the-password');
  // (Next's route announcer is an empty alert too: look inside the form.)
  const alert = page.locator('form').getByRole('alert');
  await expect(alert).toContainText('The user name or password is incorrect.');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await page.screenshot({ path: '/tmp/gatehouse-login-error.png', fullPage: true });
  assertClean();
});

test('an empty form is checked before it is sent', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Enter your user name or e-mail address.')).toBeVisible();
  await expect(page.getByLabel('User name or e-mail')).toBeFocused();
});

test('the console sends anonymous visitors to sign-in and back', async ({ page }) => {
  await page.goto('/console');
  await expect(page).toHaveURL(urlOn('localhost', '/login?redirect=%2Fconsole'));
  await signIn(page, userName, password);
  await expect(page).toHaveURL(urlOn('localhost', '/console'));
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome/ })).toBeVisible();
});

test('a deep console link survives sign-in', async ({ page }) => {
  await page.goto('/console/realms?x=1');
  await expect(page).toHaveURL(urlOn('localhost', `/login?redirect=${encodeURIComponent('/console/realms?x=1')}`));
  await signIn(page, userName, password);
  await expect(page).toHaveURL(urlOn('localhost', '/console/realms?x=1'));
});

for (const evil of ['//evil.example', '/\\evil.example', 'https://evil.example/']) {
  test(`an open redirect ${JSON.stringify(evil)} is ignored`, async ({ page }) => {
    await page.goto(`/login?redirect=${encodeURIComponent(evil)}`);
    await signIn(page, userName, password);
    await expect(page).toHaveURL(urlOn('localhost', '/console'));
  });
}

test('a signed-in visitor of /login goes straight on, and / leads to the console', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, userName, password);
  await expect(page).toHaveURL(/\/console$/);
  await page.goto('/login?redirect=%2Faccount');
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My account' })).toBeVisible();
  await page.screenshot({ path: '/tmp/gatehouse-account.png', fullPage: true });
  await page.goto('/');
  await expect(page).toHaveURL(/\/console$/);
});

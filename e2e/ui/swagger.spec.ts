import { expect, test } from '@playwright/test';
import { ensureAdmin, signIn, uniqueSuffix, watchConsole } from './support/env';

// /swagger: the OpenAPI document in Swagger UI. Operations start collapsed; "Try it out" calls the
// API on this host with the session cookie, so a signed-in administrator sees their own account.
const suffix = uniqueSuffix();
const admin = `swagger-admin-${suffix}`;
const password = `swagger-admin-pass-${suffix}`;

test.beforeAll(async () => {
  await ensureAdmin(admin, password);
});

test('the API reference renders collapsed and tries an operation with the session cookie', async ({ page }) => {
  await page.goto('/login?redirect=%2Fswagger');
  await signIn(page, admin, password);
  await page.waitForURL('**/swagger');
  const assertClean = watchConsole(page);
  await page.reload();

  await expect(page.getByRole('heading', { level: 1, name: /^Gatehouse/ })).toBeVisible();
  await expect(page.getByRole('link', { name: '/swagger/v1/swagger.json' })).toBeVisible();

  await test.step('operations are collapsed', async () => {
    const accountTag = page.locator('.opblock-tag-section').filter({ has: page.locator('h3[data-tag="Account"]') });
    await expect(accountTag).toBeVisible();
    // docExpansion "none": no tag is open and no operation shows its details.
    await expect(page.locator('.opblock-tag-section.is-open')).toHaveCount(0);
    await expect(page.locator('.opblock.is-open')).toHaveCount(0);
    await accountTag.locator('h3[data-tag="Account"]').click();
    await expect(accountTag.locator('.opblock').first()).toBeVisible();
    await expect(page.locator('.opblock.is-open')).toHaveCount(0);
  });

  await test.step('try it out: GET /api/account/me answers 200 with the signed-in person', async () => {
    const operation = page.locator('.opblock-get').filter({ has: page.locator('[data-path="/api/account/me"]') });
    await operation.locator('.opblock-summary-control').click();
    await expect(operation).toHaveClass(/is-open/);
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const answer = operation.locator('.live-responses-table tr.response');
    await expect(answer.locator('.response-col_status')).toHaveText('200');
    await expect(answer.locator('.response-col_description')).toContainText(`"UserName": "${admin}"`);
  });

  assertClean();
});

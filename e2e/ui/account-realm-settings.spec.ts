import { expect, test } from '@playwright/test';
import { signInAdmin } from './support/account';
import { uniqueSuffix, urlOn, watchConsole } from './support/env';

// /console/settings edits the realm settings; the public /api/app-info shows the change.
const suffix = uniqueSuffix();

test('a realm setting edited in the console reaches /api/app-info', async ({ page }) => {
  const assertClean = watchConsole(page);
  await signInAdmin(page, `settings-${suffix}`, `settings-pass-${suffix}`);
  const nav = page.getByRole('navigation', { name: 'Console' });
  await nav.getByRole('link', { name: 'Realm settings' }).click();
  await expect(page).toHaveURL(urlOn('localhost', '/console/settings'));
  await expect(page.getByRole('heading', { level: 1, name: 'Realm settings' })).toBeVisible();
  const productName = page.getByLabel(/^Product name/);
  await expect(productName).toBeVisible();
  const before = await productName.inputValue();
  const save = page.getByRole('button', { name: 'Save settings' });
  await expect(save).toBeDisabled();
  await expect(page.getByText('Default: 10.')).toBeVisible();
  await page.screenshot({ path: '/tmp/gatehouse-console-settings.png', fullPage: true });

  await test.step('invalid values are shown at their fields', async () => {
    await page.getByLabel('Minimum length').fill('4');
    await page.getByLabel('Primary colour').fill('blue');
    await save.click();
    await expect(page.getByText('Use at least 8.')).toBeVisible();
    await expect(page.getByText('Use a colour like #1f4f8f.')).toBeVisible();
    await page.getByRole('button', { name: 'Discard changes' }).click();
  });

  try {
    await test.step('the product name and magic links are saved and published', async () => {
      await productName.fill(`Gatehouse ${suffix}`);
      await page.getByLabel('Link by e-mail (magic link)').check();
      await save.click();
      await expect(page.getByText('Settings saved.')).toBeVisible();
      const info = await (await page.request.get(urlOn('localhost', '/api/app-info'))).json();
      expect(info.Branding.ProductName).toBe(`Gatehouse ${suffix}`);
      expect(info.SignIn.MagicLink).toBe(true);
      await page.reload();
      await expect(productName).toHaveValue(`Gatehouse ${suffix}`);
    });
  } finally {
    await test.step('put the settings back', async () => {
      await productName.fill(before);
      await page.getByLabel('Link by e-mail (magic link)').uncheck();
      await save.click();
      await expect(page.getByText('Settings saved.')).toBeVisible();
    });
  }
  assertClean();
});

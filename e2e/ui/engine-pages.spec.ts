import { expect, test } from '@playwright/test';
import { urlOn, watchConsole } from './support/env';

// Issue 30 item 12: the engine's device page loads under its Content-Security-Policy without a
// console error (its old inline onfocus handler was blocked on every visit), and its code input is
// found by its label. Its styles are allowed by hash, so the brand colour applies.

test('the device page logs no CSP error and its code input is labelled', async ({ page }) => {
  const assertClean = watchConsole(page);
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { reportViolation: (v: string) => void }).reportViolation(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto(urlOn('localhost', '/connect/device'));
  const code = page.getByLabel('Code');
  await expect(code).toBeFocused();
  await code.fill('BCDF-GHJK');
  // The button wears the brand colour from the second, hashed style.
  const background = await page.getByRole('button', { name: 'Continue' }).evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(background).toBe('rgb(31, 79, 143)');
  expect(violations).toEqual([]);
  assertClean();
});

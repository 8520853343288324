import { expect, test } from '@playwright/test';
import { watchConsole } from './support/env';
import { useControlPlaneAdmin, createRealm, patchRealmSettings } from './support/hosted';

// Issue 8 item 16: the realm's branding (ProductName, LogoUrl) on the hosted pages, loaded under
// the pages' Content-Security-Policy (no console error: neither the logo nor Next's scripts blocked).

const admin = useControlPlaneAdmin();

test('the sign-in page shows the product name and the logo', async ({ page }) => {
  const realm = await createRealm(admin(), 'brand');
  const logo = `${realm.origin}/icon.svg`;
  await patchRealmSettings(realm, { Branding: { ProductName: 'Acme Portal', LogoUrl: logo } });

  const assertClean = watchConsole(page);
  await page.goto(`${realm.origin}/login`);
  await expect(page.getByTestId('realm-product-name')).toHaveText('Acme Portal');
  const img = page.getByRole('img', { name: 'Acme Portal logo' });
  await expect(img).toHaveAttribute('src', logo);
  // The image really loaded (the CSP's img-src allows it).
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  // The page still works under its policy: the form is interactive.
  await page
    .getByLabel(/user name|e-mail/i)
    .first()
    .fill('someone');
  assertClean();
});

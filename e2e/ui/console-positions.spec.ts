import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ensureAdmin, signIn, uniqueSuffix, urlOn, watchConsole } from './support/env';

// Positions and their terminals through the console (spec 4.7 "Positions"): hidden while the realm's
// switch is off, turned on in the realm settings, a position created, edited and searched, a
// terminal client made from its page (its token names the position), a service account made with a
// client, the delete refused while the terminal exists, then allowed; the Maintenance card checks
// and rebuilds the realm's derived stores. The switch is put back at the end.
const suffix = uniqueSuffix();
const admin = `positions-admin-${suffix}`;
const password = `positions-admin-pass-${suffix}`;
const SCOPE = 'gatehouse.management';

test.beforeAll(async () => {
  await ensureAdmin(admin, password);
});

function tokenRequest(request: APIRequestContext, clientId: string, secret: string) {
  return request.post(urlOn('localhost', '/connect/token'), {
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
    form: { grant_type: 'client_credentials', scope: SCOPE },
  });
}

async function readSecretOnce(page: Page): Promise<{ clientId: string; secret: string }> {
  const panel = page.getByRole('region', { name: 'One-time secret' });
  await expect(panel.getByLabel('Client secret')).toBeVisible();
  return { clientId: await panel.getByLabel('Client ID').inputValue(), secret: await panel.getByLabel('Client secret').inputValue() };
}

async function setSwitch(page: Page, on: boolean) {
  await page.goto('/console/settings');
  const box = page.getByLabel('Positions and terminals');
  if ((await box.isChecked()) !== on) {
    await box.setChecked(on);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();
  }
}

test('positions: switched on, created, given a terminal whose token names it, and deleted once the terminal is gone', async ({ page, request }) => {
  // A long walk: on the development server every page compiles on its first visit.
  test.setTimeout(600_000);
  const assertClean = watchConsole(page);
  const positionName = `Front till ${suffix}`;
  await page.goto('/login?redirect=%2Fconsole');
  await signIn(page, admin, password);
  const nav = page.getByRole('navigation', { name: 'Console' });
  await expect(nav.getByRole('link', { name: 'OAuth clients' })).toBeVisible({ timeout: 120_000 });

  try {
    await test.step('hidden while the switch is off', async () => {
      await expect(nav.getByRole('link', { name: 'Positions' })).toHaveCount(0);
      await page.goto('/console/positions');
      await expect(page.getByRole('heading', { level: 1, name: 'Not found' })).toBeVisible();
    });

    await test.step('the Maintenance card checks and rebuilds the derived stores', async () => {
      await page.goto('/console/settings');
      const card = page.getByRole('region', { name: 'Maintenance' });
      await card.getByRole('button', { name: 'Check consistency' }).click();
      await expect(card.getByRole('status')).toContainText(/consistent/i);
      await expect(card.getByRole('list', { name: 'Stores' })).toContainText('Application addresses');
      await card.getByRole('button', { name: 'Rebuild' }).click();
      await expect(card.getByText('Rebuilt: everything is consistent.')).toBeVisible();
    });

    await test.step('turned on in the realm settings, the page appears', async () => {
      await setSwitch(page, true);
      await page.reload();
      await nav.getByRole('link', { name: 'Positions' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Positions' })).toBeVisible();
    });

    await test.step('create a position (a duplicate name is refused at its field) and edit it', async () => {
      await page.getByRole('link', { name: 'New position' }).click();
      await page.getByLabel('Name', { exact: true }).fill(positionName);
      await page.getByLabel(/^Description/).fill('By the entrance');
      await page.getByRole('button', { name: 'Create position' }).click();
      await expect(page.getByRole('heading', { level: 1, name: positionName })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Terminals' })).toContainText('No terminals yet.');

      await page.getByRole('link', { name: 'Positions', exact: true }).first().click();
      await page.getByRole('link', { name: 'New position' }).click();
      await page.getByLabel('Name', { exact: true }).fill(positionName.toUpperCase());
      await page.getByRole('button', { name: 'Create position' }).click();
      await expect(page.getByText(/A position named .* already exists/)).toBeVisible();

      await nav.getByRole('link', { name: 'Positions' }).click();
      await page.getByRole('searchbox', { name: 'Search positions' }).fill(suffix);
      const row = page.getByRole('row').filter({ hasText: positionName });
      await expect(row).toContainText('By the entrance');
      await row.getByRole('link', { name: positionName }).click();
      await page.getByLabel(/^Description/).fill('By the main entrance');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByText('Changes saved.')).toBeVisible();
    });

    let terminal = { clientId: '', secret: '' };
    await test.step('a terminal made from the position’s page gets tokens that name the position', async () => {
      const positionUrl = page.url();
      const positionId = decodeURIComponent(positionUrl.split('/').pop()!);
      await page.getByRole('link', { name: 'Create a terminal for this position' }).click();
      await expect(page.getByLabel(/^Terminal of position/)).toHaveValue(positionId);
      await page.getByLabel('Display name').fill(`Till terminal ${suffix}`);
      await expect(page.getByRole('checkbox', { name: 'Client credentials' })).toBeChecked();
      await expect(page.getByText(/Signing people in needs openid/)).toBeVisible();
      await page.getByRole('checkbox', { name: SCOPE }).check();
      await page.getByRole('button', { name: 'Create client' }).click();
      terminal = await readSecretOnce(page);
      const res = await tokenRequest(request, terminal.clientId, terminal.secret);
      expect(res.status(), await res.text()).toBe(200);
      const token: string = (await res.json()).access_token;
      const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
      expect(claims.position_id).toBe(positionId);
      await page.getByRole('link', { name: /I have stored the secret/ }).click();
      await page.goto(positionUrl);
      await expect(page.getByRole('region', { name: 'Terminals' }).getByRole('link', { name: terminal.clientId })).toBeVisible();
    });

    await test.step('a client made together with a new service account belongs to it', async () => {
      await page.goto('/console/oauth/clients/new');
      await page.getByLabel('Display name').fill(`Export job ${suffix}`);
      await page.getByLabel('Service account', { exact: true }).selectOption('new');
      await page.getByLabel('New service account name').fill(`export-${suffix}`);
      await expect(page.getByRole('checkbox', { name: 'Authorization code' })).not.toBeChecked();
      await page.getByRole('button', { name: 'Create client' }).click();
      await readSecretOnce(page);
      await page.getByRole('link', { name: /I have stored the secret/ }).click();
      await expect(page.getByText('Managed by a service account')).toBeVisible();
    });

    await test.step('the position is not deleted while its terminal exists; then it is', async () => {
      await nav.getByRole('link', { name: 'Positions' }).click();
      await page.getByRole('link', { name: positionName }).click();
      await page.getByRole('button', { name: 'Delete…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Delete position' }).click();
      await expect(dialog).toContainText(terminal.clientId);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('region', { name: 'Terminals' }).getByRole('link', { name: terminal.clientId }).click();
      await expect(page.getByRole('heading', { level: 1, name: `Till terminal ${suffix}` })).toBeVisible();
      await page.getByRole('button', { name: 'Delete…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete client' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'OAuth clients' })).toBeVisible();

      await nav.getByRole('link', { name: 'Positions' }).click();
      await page.getByRole('link', { name: positionName }).click();
      await expect(page.getByRole('region', { name: 'Terminals' })).toContainText('No terminals yet.');
      await page.getByRole('button', { name: 'Delete…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete position' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Positions' })).toBeVisible();
      await expect(page.getByRole('link', { name: positionName })).toHaveCount(0);
    });
  } finally {
    await test.step('switch positions off again', async () => {
      await setSwitch(page, false);
      await page.reload();
      await expect(nav.getByRole('link', { name: 'Positions' })).toHaveCount(0);
    });
  }
  await page.screenshot({ path: '/tmp/gatehouse-console-positions.png', fullPage: true });
  assertClean();
});

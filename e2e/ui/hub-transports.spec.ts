import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn, watchConsole } from './support/env';
import { controlPlaneAdmin, createRealm, createUser, quietDevReloads, realmAdmin, type TestRealm } from './support/hosted';

// The real-time hub from Chromium (docs/realtime.md): the unchanged @microsoft/signalr browser
// bundle, evaluated in a signed-in console page, connects over each transport with the page's
// cookie and under its CSP, and hears a user created through the API; signing out closes it.

const SIGNALR_BUNDLE = readFileSync(createRequire(import.meta.url).resolve('@microsoft/signalr/dist/browser/signalr.min.js'), 'utf8');
// HttpTransportType of the client: WebSockets 1, ServerSentEvents 2, LongPolling 4.
const TRANSPORTS = [
  ['WebSockets', 1],
  ['ServerSentEvents', 2],
  ['LongPolling', 4],
] as const;

type Changed = { Resource: string; Action: string; Id?: string };
type HubWindow = { signalR: any; hub: any; changes: Changed[]; closed: string | null };

let cpAdmin: APIRequestContext;
let realm: TestRealm;
let admin: APIRequestContext;

test.beforeAll(async () => {
  cpAdmin = await controlPlaneAdmin();
  realm = await createRealm(cpAdmin, 'hub');
  admin = await realmAdmin(realm);
});

test.afterAll(async () => {
  await admin?.dispose();
  await cpAdmin?.dispose();
});

/** Loads the client into the page (not as a script tag: the page's CSP allows only its own scripts) and connects. */
async function connect(page: Page, transport: number): Promise<void> {
  await page.evaluate(SIGNALR_BUNDLE);
  await page.evaluate(async (transport) => {
    const w = window as unknown as HubWindow;
    w.changes = [];
    w.closed = null;
    w.hub = new w.signalR.HubConnectionBuilder().withUrl('/signalr/ui', { transport }).configureLogging(w.signalR.LogLevel.None).build();
    w.hub.on('changed', (c: Changed) => w.changes.push(c));
    w.hub.onclose((e?: Error) => (w.closed = e ? e.message : 'closed'));
    await w.hub.start();
  }, transport);
}

for (const [name, transport] of TRANSPORTS) {
  test(`the console hears a change over ${name}, and the connection ends with the session`, async ({ browser }) => {
    const context = await browser.newContext();
    try {
      await quietDevReloads(context);
      const page = await context.newPage();
      const assertClean = watchConsole(page);
      await page.goto(`${realm.origin}/login?redirect=%2Faccount`);
      await signIn(page, realm.admin.userName, realm.admin.password);
      await expect(page).toHaveURL(`${realm.origin}/account`);
      await page.waitForLoadState('load');

      await connect(page, transport);
      expect(await page.evaluate(() => (window as unknown as HubWindow).hub.state)).toBe('Connected');

      const user = await createUser(admin, `hub${transport}`);
      await expect
        .poll(() => page.evaluate(() => (window as unknown as HubWindow).changes))
        .toContainEqual({ Resource: 'user', Action: 'created', Id: user.id });

      // Signing out in this browser ends its session: the server closes the connection.
      const out = await page.evaluate(
        async () => (await fetch('/api/account/logout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
      );
      expect(out).toBe(200);
      await expect.poll(() => page.evaluate(() => (window as unknown as HubWindow).closed)).not.toBeNull();
      assertClean();
    } finally {
      await context.close();
    }
  });
}

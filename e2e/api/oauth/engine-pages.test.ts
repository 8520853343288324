import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, CookieJar, createRealm, hostHeader, type ApiResponse, type SignedIn } from '../support/harness';
import { formIn, submit } from './fixtures';

// Issue 30 item 12: the engine's own pages (device code, logout, errors) wear the branding of the
// App the Host routes to, else the realm's (product name, colour, logo), carry no inline handler
// the CSP would block, label every input, and the error page offers a way back. A host no realm
// claims answers a browser with a plain HTML page, and everything else with a JSON problem.

const PRODUCT = 'Acme <Devices> & Co';
const PRODUCT_HTML = 'Acme &lt;Devices&gt; &amp; Co';
const COLOUR = '#7a1f5c';
const APP_PRODUCT = 'Shop "TV" Online';
const APP_PRODUCT_HTML = 'Shop &quot;TV&quot; Online';
const APP_COLOUR = '#0b6e4f';

let host: string;
let shopHost: string;
let admin: SignedIn;

beforeAll(async () => {
  const realm = await createRealm();
  host = realm.host;
  admin = await bootstrapAdmin(realm.slug);
  const patched = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { Branding: { ProductName: PRODUCT, PrimaryColor: COLOUR } } });
  expect(patched.status, patched.text).toBe(200);
  const app = await api(host, 'POST', '/api/app', {
    cookie: admin.jar,
    body: {
      Slug: `tv-${randomBytes(3).toString('hex')}`,
      DisplayName: 'Shop',
      PermissionCatalog: [],
      Settings: { Origin: { Subdomain: 'tv' }, Branding: { ProductName: APP_PRODUCT, PrimaryColor: APP_COLOUR } },
    },
  });
  expect(app.status, app.text).toBe(201);
  shopHost = hostHeader(app.body.Host);
});

const page = (onHost: string, path: string) => api(onHost, 'GET', path, { headers: { accept: 'text/html' } });

/** RP-initiated logout without a session: the engine's self-submitting step, its redirect, then its "Signed out" page. */
async function signedOutPage(onHost: string): Promise<ApiResponse> {
  const jar = new CookieJar();
  const start = await api(onHost, 'GET', '/connect/endsession', { cookie: jar, headers: { accept: 'text/html' } });
  expect(start.status, start.text).toBe(200);
  const confirmed = await submit(onHost, jar, formIn(start.text));
  expect(confirmed.status, confirmed.text).toBe(303);
  const success = new URL(confirmed.headers.location!);
  return api(onHost, 'GET', success.pathname + success.search, { cookie: jar, headers: { accept: 'text/html' } });
}

/** The page's styles are exactly those its CSP allows by hash, and nothing else can run or apply. */
function expectCspClean(res: ApiResponse, what: string): void {
  const csp = String(res.headers['content-security-policy']);
  const styleSrc = csp.split(';').find((d) => d.trim().startsWith('style-src')) ?? '';
  const styles = [...res.text.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
  expect(styles.length, what).toBeGreaterThan(0);
  for (const css of styles) expect(styleSrc, what).toContain(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
  expect(styleSrc, what).not.toContain('unsafe-inline');
  expect(res.text, what).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
  expect(res.text, what).not.toMatch(/<[^>]+\sstyle\s*=/i);
  expect(res.text, what).not.toMatch(/<script\b/i);
}

/** Every input a person fills in (not hidden) has a <label for> naming its id. */
function expectLabelled(html: string, what: string): void {
  const inputs = [...html.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).filter((tag) => !/type="hidden"/.test(tag));
  for (const tag of inputs) {
    const id = /\sid="([^"]+)"/.exec(tag)?.[1];
    expect(id, `${what}: ${tag}`).toBeTruthy();
    expect(html, `${what}: ${tag}`).toContain(`<label for="${id}">`);
  }
}

describe('the engine pages', () => {
  it('the device page has the realm’s product name and colour, labelled inputs and no inline handler', async () => {
    const res = await page(host, '/connect/device');
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain(PRODUCT_HTML);
    expect(res.text).not.toContain(PRODUCT);
    expect(res.text).toContain(`--brand:${COLOUR}`);
    expect(res.text).toMatch(/<input[^>]*name="user_code"/);
    expectLabelled(res.text, '/connect/device');
    expectCspClean(res, '/connect/device');
  });

  it('a wrong code shows the page again, still labelled and CSP-clean, the code kept', async () => {
    const jar = new CookieJar();
    const form = await api(host, 'GET', '/connect/device', { cookie: jar, headers: { accept: 'text/html' } });
    const res = await submit(host, jar, formIn(form.text, 'op.deviceInputForm'), { user_code: 'WXYZ-BCDF' });
    expect(res.text).toMatch(/That code is not valid/);
    expect(res.text).toMatch(/<input[^>]*value="WXYZ-BCDF"/);
    expectLabelled(res.text, 'device error');
    expectCspClean(res, 'device error');
  });

  it('on an App’s host the pages wear the App’s branding', async () => {
    for (const path of ['/connect/device', '/connect/endsession']) {
      const res = path === '/connect/device' ? await page(shopHost, path) : await signedOutPage(shopHost);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.text, path).toContain(APP_PRODUCT_HTML);
      expect(res.text, path).toContain(`--brand:${APP_COLOUR}`);
      expect(res.text, path).not.toContain(PRODUCT_HTML);
      expectCspClean(res, path);
    }
  });

  it('the signed-out page is branded, CSP-clean and links to sign-in', async () => {
    const res = await signedOutPage(host);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('Signed out');
    expect(res.text).toContain(PRODUCT_HTML);
    expect(res.text).toContain('<a href="/login">');
    expectCspClean(res, 'signed out');
  });

  it('the error page is branded and links back to the site', async () => {
    const res = await page(host, '/connect/authorize?client_id=nobody&response_type=code&redirect_uri=https://x.test/cb');
    expect(res.status).toBe(400);
    expect(res.contentType).toMatch(/^text\/html/);
    expect(res.text).toContain(PRODUCT_HTML);
    expect(res.text).toContain(`<a href="/">Go to ${PRODUCT_HTML}</a>`);
    expectCspClean(res, 'error page');
  });
});

describe('a host no realm claims', () => {
  const unknown = `nobody-${randomBytes(3).toString('hex')}.invalid`;

  it('answers a browser with a plain HTML 404 page under a CSP', async () => {
    const res = await api(unknown, 'GET', '/', { headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } });
    expect(res.status).toBe(404);
    expect(res.contentType).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(res.text).not.toContain(unknown);
    expect(String(res.headers['content-security-policy'])).toMatch(/default-src 'none'/);
    expect(String(res.headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.vary).toMatch(/Accept/);
  });

  it('answers anything else with the JSON problem', async () => {
    for (const accept of ['application/json', '*/*', 'text/html;q=0.5, application/json']) {
      const res = await api(unknown, 'GET', '/api/app-info', { headers: { accept } });
      expect(res.status, accept).toBe(404);
      expect(res.contentType, accept).toMatch(/^application\/problem\+json/);
      expect(res.body.status, accept).toBe(404);
    }
  });
});

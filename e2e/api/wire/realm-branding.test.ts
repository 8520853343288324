import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, expectProblem, type SignedIn } from '../support/harness';

// Issue 8 item 16: the realm's branding (realm settings Branding.ProductName and LogoUrl, which the
// mail already uses) is on every page people see: the hosted pages, the engine's pages, and the
// console and account header. The logo is only ever an image source, escaped.

const PRODUCT = 'Acme <Portal> & Co';
const LOGO = 'https://cdn.example.test/acme.png?size=2&theme=dark';
const PRODUCT_HTML = 'Acme &lt;Portal&gt; &amp; Co';
const LOGO_HTML = 'https://cdn.example.test/acme.png?size=2&amp;theme=dark';

const HOSTED = [
  '/login',
  '/register',
  '/register/verify?token=x',
  '/forgot-password',
  '/reset-password?token=x',
  '/verify-email?token=x',
  '/verify-profile-email?token=x',
  '/consent?uid=x',
  '/bootstrap?token=x',
  '/logged-out',
];
const ENGINE = ['/connect/device', '/connect/authorize?client_id=nobody&response_type=code&redirect_uri=https://x.test/cb'];

let host: string;
let admin: SignedIn;

beforeAll(async () => {
  const realm = await createRealm();
  host = realm.host;
  admin = await bootstrapAdmin(realm.slug);
  const res = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { Branding: { ProductName: PRODUCT, LogoUrl: LOGO } } });
  expect(res.status, res.text).toBe(200);
});

function expectBranded(html: string, what: string): void {
  expect(html, what).toContain(PRODUCT_HTML);
  const img = new RegExp(`<img[^>]*src="${LOGO_HTML.replace(/[.?*+^$()[\]\\|{}]/g, '\\$&')}"`);
  expect(html, what).toMatch(img);
  expect(html, what).not.toContain(PRODUCT);
}

describe('branding on the pages', () => {
  it.each(HOSTED)('hosted page %s', async (path) => {
    const res = await api(host, 'GET', path, { headers: { accept: 'text/html' } });
    expect(res.contentType, `${path} ${res.status}`).toMatch(/^text\/html/);
    expectBranded(res.text, path);
  });

  it.each(ENGINE)('engine page %s', async (path) => {
    const res = await api(host, 'GET', path, { headers: { accept: 'text/html' } });
    expect(res.contentType, `${path} ${res.status}`).toMatch(/^text\/html/);
    expectBranded(res.text, path);
  });

  it('the account and console header', async () => {
    for (const path of ['/account', '/console']) {
      const res = await api(host, 'GET', path, { cookie: admin.jar, headers: { accept: 'text/html' } });
      expect(res.status, path).toBe(200);
      expectBranded(res.text, path);
    }
  });

  it('a logo that is not an http(s) URL is refused by the settings', async () => {
    for (const LogoUrl of ['javascript:alert(1)', 'data:image/svg+xml,<svg/>', '/logo.png']) {
      expectProblem(await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { Branding: { LogoUrl } } }), 400, 'Validation.Failed');
    }
  });

  it('without a logo the initials mark is shown, with the product name', async () => {
    const res = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { Branding: { LogoUrl: null } } });
    expect(res.status, res.text).toBe(200);
    const page = await api(host, 'GET', '/login', { headers: { accept: 'text/html' } });
    expect(page.text).toContain(PRODUCT_HTML);
    expect(page.text).not.toContain('cdn.example.test');
    expect(page.text).toMatch(/class="brand-mark"/);
  });
});

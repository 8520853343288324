import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, CP_HOST, hostHeader, type ApiResponse } from '../support/harness';
import { startExtraServer, type ExtraServer } from '../support/extra-server';

// Issue 8 item 8: every answer that renders HTML carries a Content-Security-Policy that forbids
// framing (frame-ancestors 'none'): the hosted pages, the console and account pages, /swagger, the
// 404 page and the OAuth engine's own pages. HSTS is sent when the public scheme is https.

const NEXT_PAGES = [
  '/',
  '/login',
  '/register',
  '/register/verify?token=x',
  '/forgot-password',
  '/reset-password',
  '/reset-password?token=x',
  '/verify-email',
  '/verify-email?token=x',
  '/verify-profile-email',
  '/verify-profile-email?token=x',
  '/consent',
  '/consent?uid=x',
  '/bootstrap',
  '/bootstrap?token=x',
  '/logged-out',
  '/swagger',
  '/no-such-page',
  '/console',
  '/account',
];
const ENGINE_PAGES = ['/connect/device', '/connect/endsession', '/connect/authorize?client_id=nobody&response_type=code&redirect_uri=https://x.test/cb'];

const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values] as const),
  );

function cspOf(res: ApiResponse, what: string): Map<string, string[]> {
  const csp = res.headers['content-security-policy'];
  expect(typeof csp, `${what} (${res.status}) has no Content-Security-Policy`).toBe('string');
  const d = directives(String(csp));
  expect(d.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(d.get('object-src'), what).toEqual(["'none'"]);
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  return d;
}

const page = (path: string, port?: number) => api(port ? hostHeader(CP_HOST, port) : CP_HOST, 'GET', path, { headers: { accept: 'text/html' }, port });

describe('Content-Security-Policy on every HTML answer', () => {
  it.each(NEXT_PAGES)('%s', async (path) => {
    const res = await page(path);
    if (res.status >= 300 && res.status < 400) {
      // Signed-out visitors of the console and account pages are sent to sign-in.
      expect(res.headers.location).toMatch(/^\/login(\?redirect=|$)/);
      return;
    }
    expect(res.contentType, `${path} ${res.status}`).toMatch(/^text\/html/);
    const d = cspOf(res, path);
    const script = d.get('script-src') ?? [];
    const nonce = script.find((v) => v.startsWith("'nonce-"))?.slice(7, -1);
    expect(nonce, `${path}: ${script.join(' ')}`).toBeTruthy();
    expect(script).not.toContain("'unsafe-inline'");
    // Next puts the nonce on every script it renders: none runs without it.
    const scripts = [...res.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
  });

  it.each(ENGINE_PAGES)('the engine page %s', async (path) => {
    const res = await page(path);
    expect(res.contentType, `${path} ${res.status}: ${res.text.slice(0, 200)}`).toMatch(/^text\/html/);
    const d = cspOf(res, path);
    expect(d.get('default-src')).toEqual(["'none'"]);
    // The only script an engine page may carry is its form_post auto-submit, allowed by its hash.
    for (const [, body] of res.text.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
      expect(d.get('script-src')).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
    }
    expect(res.text).not.toMatch(/<script\s+src=/);
  });

  it('no HSTS on an http deployment', async () => {
    expect((await page('/login')).headers['strict-transport-security']).toBeUndefined();
  });
});

describe('with GATEHOUSE_PUBLIC_SCHEME=https', () => {
  let https: ExtraServer;
  beforeAll(async () => {
    https = await startExtraServer({ name: 'https-scheme', storage: 'fresh', env: { GATEHOUSE_PUBLIC_SCHEME: 'https', GATEHOUSE_PUBLIC_PORT: '443' } });
  });
  afterAll(async () => {
    await https?.stop();
  });

  it('every answer carries HSTS: pages, the API, the engine', async () => {
    for (const path of ['/login', '/consent', '/swagger', '/api/app-info', '/.well-known/openid-configuration', '/connect/device']) {
      const res = await page(path, https.port);
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expect(res.headers['strict-transport-security'], path).toMatch(/^max-age=\d{7,}/);
    }
    cspOf(await page('/register', https.port), '/register over https');
  });
});

import { describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, expectNoLeak, expectProblem, type ApiResponse } from '../support/harness';

// Issue 8 item 7: input named after Object.prototype's members (`constructor`, `__proto__`,
// `toString`), a sort field of that name, and malformed percent-encoding in a path parameter are
// client mistakes: a 4xx problem+json (or the ordinary answer when the rest of the request is
// valid), never a 500.

const KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const asAdmin = (method: string, path: string, body?: unknown) => api(CP_HOST, method, path, { cookie: adminCookie(), body });

/** A body made only of the hostile keys, at the top level and one level down, as JSON text. */
function hostileBody(key: string): string {
  return `{"${key}":{"${key}":"x","polluted":true},"nested":{"${key}":1}}`;
}

/** The ordinary answer or a 4xx problem; never a 5xx, never anything leaked. */
function expectHandled(res: ApiResponse, what: string): void {
  expect(res.status, `${what}: ${res.status} ${res.text}`).toBeLessThan(500);
  if (res.status >= 400) expectProblem(res, res.status);
  else expectNoLeak(res);
}

// Body routes whose required fields the hostile body lacks: each must answer 400 Validation.Failed.
const ANONYMOUS_BODY_ROUTES: [string, string][] = [
  ['POST', '/api/account/login'],
  ['POST', '/api/account/register'],
  ['POST', '/api/account/forgot-password'],
  ['POST', '/api/account/reset-password'],
  ['POST', '/api/account/magic-link/request'],
  ['POST', '/api/account/bootstrap-admin'],
];
const ADMIN_BODY_ROUTES: [string, string][] = [
  ['POST', '/api/user'],
  ['POST', '/api/group'],
  ['POST', '/api/role'],
  ['POST', '/api/admin/realms'],
  ['POST', '/api/admin/oauth/clients'],
  ['POST', '/api/service-account'],
];

const LIST_ROUTES = [
  '/api/user',
  '/api/group',
  '/api/role',
  '/api/service-account',
  '/api/app',
  '/api/admin/realms',
  '/api/admin/oauth/clients',
  '/api/admin/oauth/apis',
  '/api/admin/oauth/scopes',
  '/api/admin/invite-codes',
  '/api/admin/change-requests',
];

describe('keys named after prototype members', () => {
  it.each(KEYS)('anonymous bodies with %s answer 400 Validation.Failed', async (key) => {
    for (const [method, path] of ANONYMOUS_BODY_ROUTES) {
      const res = await api(CP_HOST, method, path, { rawBody: hostileBody(key) });
      expect(res.status, `${method} ${path}: ${res.text}`).not.toBe(500);
      // 429 would hide the input check: the anonymous policies allow this many per run.
      expectProblem(res, 400, 'Validation.Failed');
    }
  });

  it.each(KEYS)('administrator bodies with %s answer 400 Validation.Failed', async (key) => {
    for (const [method, path] of ADMIN_BODY_ROUTES) {
      const res = await api(CP_HOST, method, path, { cookie: adminCookie(), rawBody: hostileBody(key) });
      expectProblem(res, 400, 'Validation.Failed');
    }
  });

  it('a valid body with extra hostile keys is served as if they were absent', async () => {
    const res = await asAdmin('GET', '/api/account/me');
    expect(res.status).toBe(200);
    const raw = `{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}},"toString":"x","UserName":"nobody-${Date.now()}","Password":"wrong-password"}`;
    const login = await api(CP_HOST, 'POST', '/api/account/login', { rawBody: raw });
    expectProblem(login, 401);
  });

  it.each(KEYS)('query parameters named %s are ignored on anonymous and administrator routes', async (key) => {
    for (const path of ['/api/app-info', '/api/account/self-registration-info']) {
      const res = await api(CP_HOST, 'GET', `${path}?${key}=1&${key}=2`);
      expectHandled(res, path);
      expect(res.status).toBe(200);
    }
    for (const path of LIST_ROUTES) {
      const res = await asAdmin('GET', `${path}?${key}=1&${key}=2`);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
    }
  });
});

describe('sort fields', () => {
  it.each(KEYS)('sortBy=%s on every list answers the default order, not a 500', async (key) => {
    for (const path of LIST_ROUTES) {
      const plain = await asAdmin('GET', path);
      expect(plain.status, `${path}: ${plain.text}`).toBe(200);
      const res = await asAdmin('GET', `${path}?sortBy=${encodeURIComponent(key)}&sortDescending=true`);
      expect(res.status, `${path}?sortBy=${key}: ${res.text}`).toBe(200);
      expect(res.body.totalCount).toBe(plain.body.totalCount);
    }
  });
});

describe('malformed percent-encoding in a path parameter', () => {
  const BAD = ['%E0%A4%A', '%zz', '%', 'a%C0%AFb'];

  it.each(BAD)('%s in /connect/passkey/{id} answers 4xx problem+json', async (bad) => {
    const res = await api(CP_HOST, 'DELETE', `/connect/passkey/${bad}`, { headers: { authorization: 'Bearer x' } });
    expect(res.status, res.text).toBeGreaterThanOrEqual(400);
    expect(res.status, res.text).toBeLessThan(500);
    expectProblem(res, res.status);
  });

  it.each(BAD)('%s in API path parameters answers 4xx, anonymous or signed in', async (bad) => {
    const paths = [`/api/user/${bad}`, `/api/group/${bad}`, `/api/role/${bad}`, `/api/admin/realms/${bad}`, `/api/app/${bad}`, `/api/auth/sessions/${bad}`];
    for (const path of paths) {
      for (const cookie of [undefined, adminCookie()]) {
        const res = await api(CP_HOST, 'GET', path, { cookie });
        expect(res.status, `${path} ${cookie ? 'admin' : 'anonymous'}: ${res.text}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path}: ${res.text}`).toBeLessThan(500);
        expectNoLeak(res);
      }
    }
  });

  it.each(BAD)('%s in hosted pages and engine paths answers 4xx', async (bad) => {
    for (const path of [`/login?redirect=${bad}`, `/reset-password?token=${bad}`, `/connect/authorize?client_id=${bad}`, `/consent/${bad}`]) {
      const res = await api(CP_HOST, 'GET', path);
      expect(res.status, `${path}: ${res.status}`).toBeLessThan(500);
    }
  });
});

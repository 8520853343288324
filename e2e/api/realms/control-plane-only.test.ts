import { beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, api, bootstrapAdmin, createRealm, expectProblem, hostHeader, type SignedIn } from '../support/harness';

// Spec 4.8, 7: realm-management routes from any host but the control plane's answer a bare 404
// (no code: a hidden surface), never 403 - even to that realm's own administrator.
const ROUTES: Array<[string, (slug: string) => string, unknown?]> = [
  ['GET', () => '/api/admin/realms'],
  ['POST', () => '/api/admin/realms', { Slug: 'hidden-surface', DisplayName: 'x', Domains: ['hidden-surface.localhost'] }],
  ['GET', (s) => `/api/admin/realms/${s}`],
  ['GET', () => '/api/admin/realms/control'],
  ['PATCH', (s) => `/api/admin/realms/${s}`, { DisplayName: 'hijacked' }],
  ['DELETE', (s) => `/api/admin/realms/${s}`],
  ['DELETE', () => '/api/admin/realms/control?hard=true'],
  ['POST', (s) => `/api/admin/realms/${s}/admin-invites`, { UserName: 'x', Email: 'x@example.test' }],
  ['POST', (s) => `/api/admin/realms/${s}/transfer-control-plane`],
  ['POST', () => '/api/admin/realms/control/transfer-control-plane'],
  ['GET', () => '/api/admin/platform-audit'],
];

describe('realm routes on a non-control-plane host', () => {
  let slug: string;
  let host: string;
  let admin: SignedIn;

  beforeAll(async () => {
    ({ slug, host } = await createRealm());
    admin = await bootstrapAdmin(slug);
  });

  it("the realm's own administrator holds realm:admin there (so a 404 is not a missing permission)", async () => {
    const me = await api(host, 'GET', '/api/account/me', { cookie: admin.jar });
    expect(me.status).toBe(200);
    expect(me.body.Permissions).toContain('realm:admin');
  });

  it.each(ROUTES)('%s %s answers a bare 404 to its administrator', async (method, path, body) => {
    const res = await api(host, method, path(slug), { cookie: admin.jar, body });
    expectProblem(res, 404, null);
  });

  it.each(ROUTES)('%s %s answers a bare 404 anonymously', async (method, path, body) => {
    const res = await api(host, method, path(slug), { body });
    expectProblem(res, 404, null);
  });

  it('nothing was changed by those calls', async () => {
    const res = await api(hostHeader('localhost'), 'GET', `/api/admin/realms/${slug}`, { cookie: adminCookie() });
    expect(res.body.DisplayName).not.toBe('hijacked');
    expect(res.body.IsActive).toBe(true);
    const cp = await api(hostHeader('localhost'), 'GET', '/api/admin/realms/control', { cookie: adminCookie() });
    expect(cp.body.IsControlPlane).toBe(true);
    const hidden = await api(hostHeader('localhost'), 'GET', '/api/admin/realms/hidden-surface', { cookie: adminCookie() });
    expect(hidden.status).toBe(404);
  });

  it("the control plane's session cookie is not accepted on the realm's host either", async () => {
    const res = await api(host, 'GET', '/api/admin/realms', { cookie: adminCookie() });
    expectProblem(res, 404, null);
  });
});

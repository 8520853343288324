import { describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, createRealm, expectProblem, hostHeader, suite, uniqueSlug } from '../support/harness';

// Issue 8 item 9: the CSRF check compares the whole origin (scheme, host and port) with the public
// origin of the host the write targets, not just the host name.

const realmBody = () => ({ body: { Slug: uniqueSlug('csrf'), DisplayName: 'csrf', Domains: [`${uniqueSlug('csrf')}.localhost`] } });

describe('CSRF: the whole origin counts', () => {
  it.each([
    ['another port', (port: number) => `http://localhost:${port + 1}`],
    ['the default port', () => 'http://localhost'],
    ['https on the same port', (port: number) => `https://localhost:${port}`],
    ['https without a port', () => 'https://localhost'],
    ['another host on the same port', (port: number) => `http://127.0.0.2:${port}`],
  ])('a write whose Origin has %s answers 403 and changes nothing', async (_label, originOf) => {
    const origin = originOf(suite().port);
    const { body } = realmBody();
    const res = await api(CP_HOST, 'POST', '/api/admin/realms', { cookie: adminCookie(), body, headers: { origin } });
    expectProblem(res, 403, 'Request.CsrfRejected');
    const after = await api(CP_HOST, 'GET', `/api/admin/realms/${body.Slug}`, { cookie: adminCookie() });
    expect(after.status).toBe(404);
  });

  it('an anonymous login from another port of the same host is refused (login CSRF)', async () => {
    const res = await api(CP_HOST, 'POST', '/api/account/login', {
      body: { UserName: suite().admin.userName, Password: suite().admin.password },
      headers: { origin: `http://localhost:${suite().port + 1}` },
    });
    expectProblem(res, 403, 'Request.CsrfRejected');
    expect(res.setCookies.filter((c) => !/Max-Age=0/i.test(c))).toEqual([]);
  });

  it('the public origin of the targeted host is accepted, on the control plane and on a realm domain', async () => {
    const { body } = realmBody();
    const ok = await api(CP_HOST, 'POST', '/api/admin/realms', { cookie: adminCookie(), body, headers: { origin: `http://${hostHeader(CP_HOST)}` } });
    expect(ok.status, ok.text).toBe(201);

    const realm = await createRealm();
    const login = await api(realm.host, 'POST', '/api/account/login', {
      body: { UserName: 'nobody', Password: 'wrong-password-1' },
      headers: { origin: `http://${realm.host}` },
    });
    expectProblem(login, 401);
    const wrongPort = await api(realm.host, 'POST', '/api/account/login', {
      body: { UserName: 'nobody', Password: 'wrong-password-1' },
      headers: { origin: `http://${realm.domain}:${suite().port + 1}` },
    });
    expectProblem(wrongPort, 403, 'Request.CsrfRejected');
  });
});

import { describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, createRealm, expectProblem, hostHeader, realmWithAdmin, suite, uniqueSlug } from '../support/harness';

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

// Issue 30 item 11: a write that carries cookies but neither Origin nor Sec-Fetch-Site is not a
// browser's same-origin request (browsers send Origin on every POST/PUT/PATCH/DELETE), so it is
// refused; clients without cookies (bearer tokens, anonymous calls) are not affected.
describe('CSRF: a cookie-carrying write without Origin or Sec-Fetch-Site', () => {
  it('is refused on every unsafe method of the API and changes nothing', async () => {
    const { body } = realmBody();
    const created = await api(CP_HOST, 'POST', '/api/admin/realms', { cookie: adminCookie(), body, browser: false });
    expectProblem(created, 403, 'Request.CsrfRejected');
    expect((await api(CP_HOST, 'GET', `/api/admin/realms/${body.Slug}`, { cookie: adminCookie() })).status).toBe(404);

    const realm = await realmWithAdmin();
    const patch = await api(CP_HOST, 'PATCH', `/api/admin/realms/${realm.slug}`, { cookie: adminCookie(), body: { DisplayName: 'Mallory' }, browser: false });
    expectProblem(patch, 403, 'Request.CsrfRejected');
    expect((await api(CP_HOST, 'GET', `/api/admin/realms/${realm.slug}`, { cookie: adminCookie() })).body.DisplayName).not.toBe('Mallory');

    const jar = realm.admin.jar;
    const put = await api(realm.host, 'PUT', '/api/account/profile/request', { cookie: jar, body: { Firstname: 'Mallory' }, browser: false });
    expectProblem(put, 403, 'Request.CsrfRejected');
    const others = await api(realm.host, 'DELETE', '/api/auth/sessions/others', { cookie: jar, browser: false });
    expectProblem(others, 403, 'Request.CsrfRejected');
    const logout = await api(realm.host, 'POST', '/api/account/logout', { cookie: jar, browser: false });
    expectProblem(logout, 403, 'Request.CsrfRejected');
    // The session still works.
    const me = await api(realm.host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.status, me.text).toBe(200);
  });

  it('is refused on the hub too (negotiate and the WebSocket side share the check)', async () => {
    const realm = await realmWithAdmin();
    const res = await api(realm.host, 'POST', '/signalr/ui/negotiate?negotiateVersion=1', { cookie: realm.admin.jar, browser: false });
    expectProblem(res, 403, 'Request.CsrfRejected');
  });

  it('passes with the headers a browser sends, and without cookies', async () => {
    const realm = await realmWithAdmin();
    const jar = realm.admin.jar;
    const withOrigin = await api(realm.host, 'POST', '/signalr/ui/negotiate?negotiateVersion=1', { cookie: jar, headers: { origin: `http://${realm.host}` } });
    expect(withOrigin.status, withOrigin.text).toBe(200);
    const withFetchSite = await api(realm.host, 'POST', '/signalr/ui/negotiate?negotiateVersion=1', {
      cookie: jar,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(withFetchSite.status, withFetchSite.text).toBe(200);
    // An anonymous non-browser write (no cookie) still reaches its handler: a wrong password is a 401, not a 403.
    const login = await api(realm.host, 'POST', '/api/account/login', { body: { UserName: 'nobody', Password: 'wrong-password-1' } });
    expectProblem(login, 401);
  });
});

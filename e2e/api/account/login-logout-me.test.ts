import { beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, api, bootstrapAdmin, CP_HOST, createRealm, expectProblem, signIn, type SignedIn } from '../support/harness';

// Password sign-in, sign-out and the current user (spec 4.1, 4.2, 5.1, 5.5; CONTRACT.md).
describe('login', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;

  beforeAll(async () => {
    ({ host, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
  });

  it('a good password answers 200 { authenticated: true } and sets an HttpOnly session cookie', async () => {
    const { res, jar } = await signIn(host, admin.userName, admin.password);
    expect(res.status, res.text).toBe(200);
    expect(res.body.authenticated).toBe(true);
    expect(res.body.requiresTwoFactor).toBeUndefined();
    expect(res.setCookies.length).toBeGreaterThan(0);
    expect(res.setCookies.some((c) => /HttpOnly/i.test(c))).toBe(true);
    expect(res.text).not.toMatch(/password|hash/i);
    const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.status).toBe(200);
    expect(me.body.UserName).toBe(admin.userName);
  });

  it('the e-mail address works as UserName, in any letter case', async () => {
    const { res } = await signIn(host, admin.email.toUpperCase(), admin.password);
    expect(res.status, res.text).toBe(200);
    expect(res.body.authenticated).toBe(true);
  });

  it('the user name is matched without regard to case', async () => {
    const { res } = await signIn(host, admin.userName.toUpperCase(), admin.password);
    expect(res.status, res.text).toBe(200);
  });

  it('property names are matched in any casing', async () => {
    for (const body of [
      { userName: admin.userName, password: admin.password },
      { USERNAME: admin.userName, PASSWORD: admin.password },
    ]) {
      const res = await api(host, 'POST', '/api/account/login', { body });
      expect(res.status, res.text).toBe(200);
    }
  });

  it('wrong password and unknown user answer identical 401s, without a cookie', async () => {
    const bad = await api(host, 'POST', '/api/account/login', { body: { UserName: admin.userName, Password: 'not-the-password' } });
    const unknown = await api(host, 'POST', '/api/account/login', { body: { UserName: 'nobody-here', Password: 'not-the-password' } });
    expectProblem(bad, 401);
    expectProblem(unknown, 401);
    expect(bad.body).toEqual(unknown.body);
    expect(bad.setCookies.filter((c) => !/Max-Age=0/i.test(c))).toEqual([]);
    expect(unknown.setCookies.filter((c) => !/Max-Age=0/i.test(c))).toEqual([]);
  });

  it('a user of another realm cannot sign in here', async () => {
    const other = await createRealm();
    const otherAdmin = await bootstrapAdmin(other.slug);
    const res = await api(host, 'POST', '/api/account/login', { body: { UserName: otherAdmin.userName, Password: otherAdmin.password } });
    expectProblem(res, 401);
  });

  it.each([{}, { UserName: 'x' }, { Password: 'x' }, { UserName: 1, Password: 'x' }, { UserName: '', Password: 'x' }])(
    'rejects %j with 400 Validation.Failed',
    async (body) => {
      expectProblem(await api(host, 'POST', '/api/account/login', { body }), 400, 'Validation.Failed');
    },
  );
});

describe('logout', () => {
  it('clears the cookie and the old cookie no longer works', async () => {
    const { host, slug } = await createRealm();
    const admin = await bootstrapAdmin(slug);
    const { jar } = await signIn(host, admin.userName, admin.password);
    const oldCookie = jar.toString();
    expect((await api(host, 'GET', '/api/account/me', { cookie: oldCookie })).status).toBe(200);

    const res = await api(host, 'POST', '/api/account/logout', { body: { EndIdpSession: false }, cookie: jar });
    expect(res.status, res.text).toBe(200);
    expect(res.setCookies.some((c) => /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c))).toBe(true);
    expect(jar.size).toBe(0);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: oldCookie }), 401);
    // Other sessions of the same user are untouched.
    expect((await api(host, 'GET', '/api/account/me', { cookie: admin.jar })).status).toBe(200);
  });

  it('without a session answers 200 (nothing to end)', async () => {
    const { host } = await createRealm();
    const res = await api(host, 'POST', '/api/account/logout', { body: {} });
    expect(res.status).toBe(200);
  });
});

describe('me', () => {
  it('answers 401 without a cookie, and with a junk cookie', async () => {
    expectProblem(await api(CP_HOST, 'GET', '/api/account/me'), 401);
    expectProblem(await api(CP_HOST, 'GET', '/api/account/me', { cookie: 'gatehouse_session=junk' }), 401);
    expectProblem(await api(CP_HOST, 'GET', '/api/account/me', { cookie: `gatehouse_session=${'a'.repeat(500)}` }), 401);
  });

  it('shows the user, effective permissions and the realm slug', async () => {
    const res = await api(CP_HOST, 'GET', '/api/account/me', { cookie: adminCookie() });
    expect(res.status).toBe(200);
    expect(res.body.Realm).toBe('control');
    expect(res.body.UserName).toBe('e2e-admin');
    expect(res.body.Id).toMatch(/^[0-9a-f-]{36}$/i);
    expect(Array.isArray(res.body.Permissions)).toBe(true);
    expect(res.body.Permissions).toContain('realm:admin');
    // realm:admin is pre-expanded (spec 5.7.4).
    expect(res.body.Permissions).toEqual(expect.arrayContaining(['user:read', 'user:write']));
    expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|"Password"/i);
  });

  it("in a tenant realm shows that realm's slug", async () => {
    const { slug, host } = await createRealm();
    const admin = await bootstrapAdmin(slug);
    const me = await api(host, 'GET', '/api/account/me', { cookie: admin.jar });
    expect(me.status).toBe(200);
    expect(me.body.Realm).toBe(slug);
    expect(me.body.IsControlPlane).toBe(false);
  });
});

describe('realm isolation of sessions', () => {
  it("a realm's cookie is useless on another realm's host", async () => {
    const a = await createRealm();
    const b = await createRealm();
    const adminA = await bootstrapAdmin(a.slug);
    expect((await api(a.host, 'GET', '/api/account/me', { cookie: adminA.jar })).status).toBe(200);
    expectProblem(await api(b.host, 'GET', '/api/account/me', { cookie: adminA.jar }), 401);
    expectProblem(await api(CP_HOST, 'GET', '/api/account/me', { cookie: adminA.jar }), 401);
    expectProblem(await api(CP_HOST, 'GET', '/api/admin/realms', { cookie: adminA.jar }), 401);
  });

  it("the control plane's cookie is useless on a tenant realm's host", async () => {
    const a = await createRealm();
    expectProblem(await api(a.host, 'GET', '/api/account/me', { cookie: adminCookie() }), 401);
    expectProblem(await api(a.host, 'GET', '/api/admin/auth-log', { cookie: adminCookie() }), 401);
  });

  it('the session cookie is host-only (no Domain attribute)', async () => {
    const a = await createRealm();
    const admin = await bootstrapAdmin(a.slug);
    const { res } = await signIn(a.host, admin.userName, admin.password);
    expect(res.setCookies.length).toBeGreaterThan(0);
    for (const c of res.setCookies) expect(c).not.toMatch(/;\s*Domain=/i);
  });
});

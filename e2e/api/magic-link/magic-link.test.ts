import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, CookieJar, createRealm, expectProblem, suite, type SignedIn } from '../support/harness';
import { cookieFrom } from '../support/http';
import { mailCount, waitForMail } from '../support/mailbox';
import { grant, makeUser, signedIn, type MadeUser } from '../users/fixtures';
import { enrolTotp, expectLogged, median, patchSettings, PENDING_COOKIE, ROOMY_SOURCE_LIMITS, securityLogText, SESSION_COOKIE, timed } from '../mfa/fixtures';

// Magic links (spec 4.3, 4.7, 5.6; CONTRACT.md "Account bodies"): the self-service request (only
// when the realm enables it), the mailed link, what a browser and an API client get when they follow
// it, the carried continuation, anti-enumeration, rate limits, and the administrator's link.
let host: string;
let domain: string;
let admin: SignedIn;

beforeAll(async () => {
  const realm = await createRealm();
  ({ host, domain } = realm);
  admin = await bootstrapAdmin(realm.slug);
  await patchSettings(host, admin.jar, { SignIn: { MagicLink: true }, RateLimits: ROOMY_SOURCE_LIMITS });
});

const request = (h: string, body: unknown, path = '/api/account/magic-link/request') => api(h, 'POST', path, { body });
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** Follows a link as a browser would (no JSON in Accept); the jar takes the cookies. */
function follow(h: string, pathAndQuery: string, jar?: CookieJar) {
  return api(h, 'GET', pathAndQuery, { cookie: jar, headers: BROWSER });
}

async function mailedLink(h: string, user: MadeUser, body: Record<string, unknown> = {}): Promise<URL> {
  const before = await mailCount(user.email);
  const res = await request(h, { Email: user.email, ...body });
  expect(res.status, res.text).toBe(200);
  const mail = await waitForMail(user.email, { after: before, subject: /Sign in/ });
  const link = mail.links.find((l) => l.includes('/api/account/magic-link/login'));
  expect(link, mail.text).toBeDefined();
  return new URL(link!);
}

const pathOf = (u: URL) => `${u.pathname}${u.search}`;

describe('request', () => {
  it('is refused with 403 SignIn.MethodDisabled while the realm has magic links off (the default)', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    expectProblem(await request(realm.host, { Email: a.email }), 403, 'SignIn.MethodDisabled');
    expectProblem(await request(realm.host, { Email: 'nobody@example.test' }), 403, 'SignIn.MethodDisabled');
  });

  it('mails a link to the realm origin with the token and the user id, valid 15 minutes', async () => {
    const user = await makeUser(host, admin.jar);
    const before = await mailCount(user.email);
    const res = await request(host, { Email: user.email });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const mail = await waitForMail(user.email, { after: before });
    expect(mail.text).toMatch(/15 minutes/);
    const url = new URL(mail.links.find((l) => l.includes('magic-link'))!);
    expect(url.origin).toBe(`http://${domain}:${suite().port}`);
    expect(url.pathname).toBe('/api/account/magic-link/login');
    expect(url.searchParams.get('user')).toBe(user.id);
    expect(url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await securityLogText(host, admin.jar)).not.toContain(url.searchParams.get('token')!);
  });

  it('refuses a redirect that is not a same-realm relative path (400 Continuation.Invalid)', async () => {
    const user = await makeUser(host, admin.jar);
    for (const redirect of ['//evil.test/', 'https://evil.test/', '/\\evil.test', 'javascript:alert(1)']) {
      expectProblem(await request(host, { Email: user.email, Redirect: redirect }), 400, 'Continuation.Invalid');
    }
    expectProblem(await request(host, { Email: 'not-an-address' }), 400, 'Validation.Failed');
  });
});

describe('following the link', () => {
  it('a browser is signed in and sent to / with the session cookie; the link then is used up', async () => {
    const user = await makeUser(host, admin.jar);
    const link = await mailedLink(host, user);
    const jar = new CookieJar();
    const res = await follow(host, pathOf(link), jar);
    expect(res.status, res.text).toBe(302);
    expect(res.headers.location).toBe('/');
    expect(cookieFrom(res.setCookies, SESSION_COOKIE)).toBeTruthy();
    const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.status).toBe(200);
    expect(me.body.Id).toBe(user.id);
    expect(me.body.EmailConfirmed).toBe(true);
    const again = await follow(host, pathOf(link));
    expect(again.status).toBe(302);
    expect(again.headers.location).toBe('/login?error=link-invalid');
    expect(again.setCookies).toEqual([]);
    await expectLogged(host, admin.jar, 'auth.login-succeeded', (e) => e.UserId === user.id && JSON.stringify(e.Detail).includes('mail'));
    await expectLogged(host, admin.jar, 'auth.magic-link-failed', (e) => e.Success === false);
  });

  it('carries the redirect continuation (from the body or the query string)', async () => {
    const user = await makeUser(host, admin.jar);
    const target = '/connect/authorize?client_id=app&scope=openid%20profile';
    const link = await mailedLink(host, user, { Redirect: target });
    expect(link.search).not.toContain('redirect');
    const res = await follow(host, pathOf(link));
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(target);
    const before = await mailCount(user.email);
    expect((await request(host, { Email: user.email }, '/api/account/magic-link/request?redirect=%2Fconsole%2Fusers')).status).toBe(200);
    const mail = await waitForMail(user.email, { after: before });
    const second = await follow(host, pathOf(new URL(mail.links.find((l) => l.includes('magic-link'))!)));
    expect(second.headers.location).toBe('/console/users');
  });

  it('an API client (Accept: application/json) gets the login outcome, or the problem, as JSON', async () => {
    const user = await makeUser(host, admin.jar);
    const link = await mailedLink(host, user);
    const jar = new CookieJar();
    const res = await api(host, 'GET', pathOf(link), { cookie: jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ authenticated: true, userId: user.id, userName: user.userName });
    expect(cookieFrom(res.setCookies, SESSION_COOKIE)).toBeTruthy();
    expectProblem(await api(host, 'GET', pathOf(link)), 400, 'Token.Used');
    expectProblem(await api(host, 'GET', `/api/account/magic-link/login?token=${'z'.repeat(43)}&user=${user.id}`), 400, 'Token.Invalid');
    expectProblem(await api(host, 'GET', '/api/account/magic-link/login'), 400, 'Token.Invalid');
  });

  it("a link with another user's id is refused and stays usable", async () => {
    const user = await makeUser(host, admin.jar);
    const other = await makeUser(host, admin.jar);
    const link = await mailedLink(host, user);
    const forged = new URL(link);
    forged.searchParams.set('user', other.id);
    expect((await follow(host, pathOf(forged))).headers.location).toBe('/login?error=link-invalid');
    expect((await follow(host, pathOf(link))).headers.location).toBe('/');
  });

  it("a link only works on its own realm's host", async () => {
    const user = await makeUser(host, admin.jar);
    const link = await mailedLink(host, user);
    const other = await createRealm();
    expectProblem(await api(other.host, 'GET', pathOf(link)), 400, 'Token.Invalid');
    expect((await follow(host, pathOf(link))).status).toBe(302);
  });

  it('a user with 2FA is sent to the second step with the pending cookie, which TOTP then finishes', async () => {
    const user = await makeUser(host, admin.jar);
    const device = await enrolTotp(host, await signedIn(host, user));
    const link = await mailedLink(host, user, { Redirect: '/console' });
    const jar = new CookieJar();
    const res = await follow(host, pathOf(link), jar);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login?step=mfa&redirect=%2Fconsole');
    expect(cookieFrom(res.setCookies, PENDING_COOKIE)).toBeTruthy();
    expect(cookieFrom(res.setCookies, SESSION_COOKIE)).toBeUndefined();
    const done = await api(host, 'POST', '/api/account/mfa/login', { cookie: jar, body: { Code: await device.code() } });
    expect(done.status, done.text).toBe(200);
    expect(done.body.authenticated).toBe(true);
  });

  it('self-service links stop working when the realm turns magic links off', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, { SignIn: { MagicLink: true } });
    const user = await makeUser(realm.host, a.jar);
    const link = await mailedLink(realm.host, user);
    await patchSettings(realm.host, a.jar, { SignIn: { MagicLink: false } });
    expectProblem(await api(realm.host, 'GET', pathOf(link)), 403, 'SignIn.MethodDisabled');
    expect((await follow(realm.host, pathOf(link))).headers.location).toBe('/login?error=link-invalid');
  });
});

describe('anti-enumeration', () => {
  it('an address without an account gets the same answer and no mail', async () => {
    const user = await makeUser(host, admin.jar);
    const ghost = `ghost-${user.userName}@example.test`;
    const known = await request(host, { Email: user.email });
    const unknown = await request(host, { Email: ghost });
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    expect(unknown.setCookies).toEqual(known.setCookies);
    await waitForMail(user.email);
    expect(await mailCount(ghost)).toBe(0);
  });

  it('takes the same time whether or not the address has an account (medians within 10%)', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, {
      SignIn: { MagicLink: true },
      RateLimits: { 'magic-link-request': { Source: { Points: 1000, DurationSeconds: 60 }, Target: { Points: 1000, DurationSeconds: 60 } } },
    });
    const user = await makeUser(realm.host, a.jar);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 10; i++) {
      const k = await timed(() => request(realm.host, { Email: user.email }));
      const u = await timed(() => request(realm.host, { Email: `nobody-${i}@example.test` }));
      expect([k.value.status, u.value.status]).toEqual([200, 200]);
      if (i === 0) continue;
      known.push(k.ms);
      unknown.push(u.ms);
    }
    const mk = median(known);
    const mu = median(unknown);
    expect(Math.abs(mk - mu) / Math.max(mk, mu), `known ${known.map(Math.round)} unknown ${unknown.map(Math.round)}`).toBeLessThan(0.1);
  });

  it('per mailbox: the sixth request in 15 minutes answers 429 (target), for an unknown address alike', async () => {
    const user = await makeUser(host, admin.jar);
    for (const email of [user.email, `nobody-rl-${user.userName}@example.test`]) {
      for (let i = 0; i < 5; i++) expect((await request(host, { Email: email })).status).toBe(200);
      const res = await request(host, { Email: email });
      expectProblem(res, 429);
      expect(res.body).toMatchObject({ error: 'rate_limited', policy: 'magic-link-request', dimension: 'target' });
    }
  });

  it('per source address: past the ceiling, 429 (source)', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, {
      SignIn: { MagicLink: true },
      RateLimits: {
        'magic-link-request': { Source: { Points: 2, DurationSeconds: 600 } },
        'magic-link-login': { Source: { Points: 2, DurationSeconds: 600 } },
      },
    });
    for (let i = 0; i < 2; i++) expect((await request(realm.host, { Email: `n${i}@example.test` })).status).toBe(200);
    const res = await request(realm.host, { Email: 'n9@example.test' });
    expectProblem(res, 429);
    expect(res.body).toMatchObject({ error: 'rate_limited', policy: 'magic-link-request', dimension: 'source' });
    for (let i = 0; i < 2; i++) expect((await api(realm.host, 'GET', '/api/account/magic-link/login?token=x&user=y')).status).toBe(400);
    const login = await api(realm.host, 'GET', '/api/account/magic-link/login?token=x&user=y');
    expectProblem(login, 429);
    expect(login.body).toMatchObject({ policy: 'magic-link-login', dimension: 'source' });
  });
});

describe('administrator link', () => {
  it('mails the user a link even with self-service off; answers ExpiresAt, never the token', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    const user = await makeUser(realm.host, a.jar);
    const before = await mailCount(user.email);
    const res = await api(realm.host, 'POST', `/api/admin/users/${user.id}/magic-link`, { cookie: a.jar, body: { Redirect: '/account' } });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(['ExpiresAt']);
    expect(Math.abs(new Date(res.body.ExpiresAt).getTime() - (Date.now() + 15 * 60_000))).toBeLessThan(60_000);
    const mail = await waitForMail(user.email, { after: before });
    expect(mail.text).toMatch(/administrator/);
    const link = new URL(mail.links.find((l) => l.includes('magic-link'))!);
    expect(res.text).not.toContain(link.searchParams.get('token')!);
    const follow1 = await follow(realm.host, pathOf(link));
    expect(follow1.status).toBe(302);
    expect(follow1.headers.location).toBe('/account');
    await expectLogged(realm.host, a.jar, 'user.magic-link-sent', (e) => e.UserName === a.userName);
  });

  it('also works with an empty body; refuses deactivated (400) and unknown (404) users', async () => {
    const user = await makeUser(host, admin.jar);
    expect((await api(host, 'POST', `/api/admin/users/${user.id}/magic-link`, { cookie: admin.jar })).status).toBe(200);
    const inactive = await makeUser(host, admin.jar, { IsActive: false });
    expectProblem(await api(host, 'POST', `/api/admin/users/${inactive.id}/magic-link`, { cookie: admin.jar }), 400, 'Validation.Failed');
    expectProblem(await api(host, 'POST', '/api/admin/users/00000000-0000-4000-8000-00000000dead/magic-link', { cookie: admin.jar }), 404, 'User.NotFound');
    expectProblem(
      await api(host, 'POST', `/api/admin/users/${user.id}/magic-link`, { cookie: admin.jar, body: { Redirect: '//evil.test' } }),
      400,
      'Continuation.Invalid',
    );
  });

  it('needs a session, user:write, and every permission the user holds (no escalation)', async () => {
    const user = await makeUser(host, admin.jar);
    expectProblem(await api(host, 'POST', `/api/admin/users/${user.id}/magic-link`), 401);
    const reader = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['user:read'], reader.id);
    expectProblem(await api(host, 'POST', `/api/admin/users/${user.id}/magic-link`, { cookie: await signedIn(host, reader) }), 403, 'Auth.Forbidden');
    const helpdesk = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['user:read', 'user:write'], helpdesk.id);
    const jar = await signedIn(host, helpdesk);
    expect((await api(host, 'POST', `/api/admin/users/${user.id}/magic-link`, { cookie: jar })).status).toBe(200);
    const before = await mailCount(admin.email);
    expectProblem(await api(host, 'POST', `/api/admin/users/${admin.userId}/magic-link`, { cookie: jar }), 403, 'Auth.Forbidden');
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailCount(admin.email)).toBe(before);
  });
});

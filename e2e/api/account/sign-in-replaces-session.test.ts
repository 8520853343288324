import { beforeAll, describe, expect, it } from 'vitest';
import { api, CookieJar, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';
import { cookieFrom } from '../support/http';
import { mailCount, waitForMail } from '../support/mailbox';
import { enrolTotp, patchSettings, ROOMY_SOURCE_LIMITS, SESSION_COOKIE } from '../mfa/fixtures';
import { makeUser, signedIn } from '../users/fixtures';

// One browser, one live session (issue 8 item 13): a sign-in that completes while the browser still
// holds a session cookie revokes that earlier session, whatever the method and whoever it belonged to.
let host: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  await patchSettings(host, admin.jar, { RateLimits: ROOMY_SOURCE_LIMITS });
});

/** A jar holding only the given session cookie (what a browser would still send). */
function jarWith(token: string): CookieJar {
  const jar = new CookieJar();
  jar.update([`${SESSION_COOKIE}=${token}`]);
  return jar;
}

const me = (jar: CookieJar) => api(host, 'GET', '/api/account/me', { cookie: jar });

describe('signing in again in the same browser', () => {
  it('by password: the earlier session is revoked, the new one works', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const first = jar.get(SESSION_COOKIE)!;
    const again = await api(host, 'POST', '/api/account/login', { cookie: jar, body: { UserName: user.userName, Password: user.password } });
    expect(again.status, again.text).toBe(200);
    const second = cookieFrom(again.setCookies, SESSION_COOKIE);
    expect(second).toBeTruthy();
    expect(second).not.toBe(first);
    expectProblem(await me(jarWith(first)), 401);
    expect((await me(jarWith(second!))).status).toBe(200);
    const live = await api(host, 'GET', '/api/auth/sessions', { cookie: jar });
    expect(live.body.Sessions).toHaveLength(1);
  });

  it("as someone else: the previous person's session ends", async () => {
    const a = await makeUser(host, admin.jar);
    const b = await makeUser(host, admin.jar);
    const jar = await signedIn(host, a);
    const first = jar.get(SESSION_COOKIE)!;
    const res = await api(host, 'POST', '/api/account/login', { cookie: jar, body: { UserName: b.userName, Password: b.password } });
    expect(res.status, res.text).toBe(200);
    expectProblem(await me(jarWith(first)), 401);
    expect((await me(jar)).body.UserName).toBe(b.userName);
  });

  it('by e-mail code: the earlier session is revoked', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const first = jar.get(SESSION_COOKIE)!;
    const before = await mailCount(user.email);
    expect((await api(host, 'POST', '/api/account/email-otp/login/request', { body: { Email: user.email } })).status).toBe(200);
    const mail = await waitForMail(user.email, { after: before, subject: /sign-in code/ });
    const res = await api(host, 'POST', '/api/account/email-otp/login', { cookie: jar, body: { Email: user.email, Code: mail.code } });
    expect(res.status, res.text).toBe(200);
    expectProblem(await me(jarWith(first)), 401);
    expect((await me(jar)).status).toBe(200);
  });

  it('through a second factor: the earlier session is revoked when the TOTP step completes', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const device = await enrolTotp(host, jar);
    const first = jar.get(SESSION_COOKIE)!;
    const step1 = await api(host, 'POST', '/api/account/login', { cookie: jar, body: { UserName: user.userName, Password: user.password } });
    expect(step1.body.requiresTwoFactor, step1.text).toBe(true);
    // Only a pending second factor so far: the earlier session still lives.
    expect((await me(jarWith(first))).status).toBe(200);
    const step2 = await api(host, 'POST', '/api/account/mfa/login', { cookie: jar, body: { Code: await device.code() } });
    expect(step2.status, step2.text).toBe(200);
    expectProblem(await me(jarWith(first)), 401);
    expect((await me(jar)).status).toBe(200);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, type CookieJar, createRealm, expectProblem, type SignedIn } from '../support/harness';
import { cookieFrom } from '../support/http';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';
import {
  enrolTotp,
  expectLogged,
  passwordStep,
  patchSettings,
  PENDING_COOKIE,
  ROOMY_SOURCE_LIMITS,
  securityLogText,
  SESSION_COOKIE,
  wrongCode,
} from './fixtures';
import { TotpDevice } from '../../shared/totp-device';

// TOTP second factor (spec 4.3, 5.5; CONTRACT.md "Account bodies"): enrolment, the second sign-in
// step with the pending cookie, replay protection, disabling, the setup-only sign-in after the
// grace period, and the mfa-login rate limits.
let host: string;
let slug: string;
let displayName: string;
let admin: SignedIn;

beforeAll(async () => {
  const realm = await createRealm();
  ({ host, slug } = realm);
  displayName = realm.body.Realm.DisplayName;
  admin = await bootstrapAdmin(slug);
  await patchSettings(host, admin.jar, { RateLimits: ROOMY_SOURCE_LIMITS });
});

async function userWithSession(): Promise<{ user: MadeUser; jar: CookieJar }> {
  const user = await makeUser(host, admin.jar);
  return { user, jar: await signedIn(host, user) };
}

async function userWithTotp(): Promise<{ user: MadeUser; device: TotpDevice }> {
  const { user, jar } = await userWithSession();
  return { user, device: await enrolTotp(host, jar) };
}

/** Password step of a user with 2FA: the jar holds only the pending cookie. */
async function pendingJar(user: MadeUser): Promise<CookieJar> {
  const { res, jar } = await passwordStep(host, user.userName, user.password);
  expect(res.status, res.text).toBe(200);
  expect(res.body.requiresTwoFactor).toBe(true);
  return jar;
}

const mfaLogin = (jar: CookieJar | undefined, code: string) => api(host, 'POST', '/api/account/mfa/login', { cookie: jar, body: { Code: code } });

describe('enrolment', () => {
  it('status needs a session and answers the lower-case body of the spec', async () => {
    expectProblem(await api(host, 'GET', '/api/account/mfa/status'), 401, 'Auth.Unauthenticated');
    const { jar } = await userWithSession();
    const res = await api(host, 'GET', '/api/account/mfa/status', { cookie: jar });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ enabled: false, hasAuthenticator: false });
  });

  it('setup answers the base32 key, the otpauth URI (issuer = realm) and an SVG QR code', async () => {
    const { user, jar } = await userWithSession();
    const res = await api(host, 'POST', '/api/account/mfa/setup', { cookie: jar });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['AuthenticatorUri', 'QrCodeSvg', 'SharedKey']);
    expect(res.body.SharedKey).toMatch(/^[A-Z2-7]{32}$/);
    const issuer = encodeURIComponent(displayName);
    expect(res.body.AuthenticatorUri).toBe(`otpauth://totp/${issuer}:${encodeURIComponent(user.userName)}?secret=${res.body.SharedKey}&issuer=${issuer}`);
    expect(res.body.QrCodeSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // Not on yet.
    expect((await api(host, 'GET', '/api/account/mfa/status', { cookie: jar })).body).toEqual({ enabled: false, hasAuthenticator: false });
  });

  it('a second setup replaces the unconfirmed key; verify turns 2FA on; then setup and verify answer 409', async () => {
    const { jar } = await userWithSession();
    const first = new TotpDevice((await api(host, 'POST', '/api/account/mfa/setup', { cookie: jar })).body.SharedKey);
    const second = new TotpDevice((await api(host, 'POST', '/api/account/mfa/setup', { cookie: jar })).body.SharedKey);
    expect(second.key).not.toBe(first.key);
    expectProblem(await api(host, 'POST', '/api/account/mfa/verify', { cookie: jar, body: { Code: await first.code() } }), 400, 'Mfa.InvalidCode');
    const ok = await api(host, 'POST', '/api/account/mfa/verify', { cookie: jar, body: { Code: await second.code() } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ TwoFactorEnabled: true });
    expect((await api(host, 'GET', '/api/account/mfa/status', { cookie: jar })).body).toEqual({ enabled: true, hasAuthenticator: true });
    expectProblem(await api(host, 'POST', '/api/account/mfa/setup', { cookie: jar }), 409, 'Mfa.AlreadyEnabled');
    expectProblem(await api(host, 'POST', '/api/account/mfa/verify', { cookie: jar, body: { Code: await second.code() } }), 409, 'Mfa.AlreadyEnabled');
  });

  it('verify before setup answers 400 Mfa.SetupNotStarted; without a session 401; a bad body 400', async () => {
    const { jar } = await userWithSession();
    expectProblem(await api(host, 'POST', '/api/account/mfa/verify', { cookie: jar, body: { Code: '123456' } }), 400, 'Mfa.SetupNotStarted');
    expectProblem(await api(host, 'POST', '/api/account/mfa/verify', { body: { Code: '123456' } }), 401, 'Auth.Unauthenticated');
    expectProblem(await api(host, 'POST', '/api/account/mfa/setup'), 401, 'Auth.Unauthenticated');
    expectProblem(await api(host, 'POST', '/api/account/mfa/verify', { cookie: jar, body: {} }), 400, 'Validation.Failed');
  });

  it('the key is stored sealed: the security log never holds it, nor any code', async () => {
    const { jar } = await userWithSession();
    const device = await enrolTotp(host, jar);
    const text = await securityLogText(host, admin.jar);
    expect(text).not.toContain(device.key);
    expect(text).not.toContain(await device.replay());
    await expectLogged(host, admin.jar, 'auth.two-factor-enabled');
  });
});

describe('sign-in with a second factor', () => {
  it('the password step answers requiresTwoFactor and sets only the pending cookie, which is no session', async () => {
    const { user } = await userWithTotp();
    const { res, jar } = await passwordStep(host, user.userName, user.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requiresTwoFactor: true, mfaMethods: ['totp', 'email-otp'] });
    expect(cookieFrom(res.setCookies, PENDING_COOKIE)).toBeTruthy();
    expect(cookieFrom(res.setCookies, SESSION_COOKIE)).toBeUndefined();
    expect(res.setCookies.find((c) => c.startsWith(`${PENDING_COOKIE}=`))).toMatch(/HttpOnly/i);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: jar }), 401);
    expectProblem(await api(host, 'GET', '/api/account/mfa/status', { cookie: jar }), 401);
  });

  it('mfa/login with the code: the login outcome, the session cookie, the pending cookie cleared', async () => {
    const { user, device } = await userWithTotp();
    const jar = await pendingJar(user);
    const res = await mfaLogin(jar, await device.code());
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ authenticated: true, userId: user.id, userName: user.userName });
    expect(cookieFrom(res.setCookies, SESSION_COOKIE)).toBeTruthy();
    expect(res.setCookies.some((c) => c.startsWith(`${PENDING_COOKIE}=;`) && /Max-Age=0/i.test(c))).toBe(true);
    const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.status).toBe(200);
    expect(me.body.UserName).toBe(user.userName);
    await expectLogged(host, admin.jar, 'auth.login-succeeded', (e) => e.UserId === user.id && JSON.stringify(e.Detail).includes('pwd+otp'));
  });

  it('without the pending cookie, or with a junk or used one: 401 SignIn.NoPendingSignIn', async () => {
    const { user, device } = await userWithTotp();
    expectProblem(await mfaLogin(undefined, '123456'), 401, 'SignIn.NoPendingSignIn');
    expectProblem(
      await api(host, 'POST', '/api/account/mfa/login', { cookie: `${PENDING_COOKIE}=${'x'.repeat(43)}`, body: { Code: '123456' } }),
      401,
      'SignIn.NoPendingSignIn',
    );
    const jar = await pendingJar(user);
    const used = jar.toString();
    expect((await mfaLogin(jar, await device.code())).status).toBe(200);
    expectProblem(await api(host, 'POST', '/api/account/mfa/login', { cookie: used, body: { Code: await device.code() } }), 401, 'SignIn.NoPendingSignIn');
    await expectLogged(host, admin.jar, 'auth.second-factor-failed', (e) => JSON.stringify(e.Detail).includes('no-pending-sign-in'));
  });

  it('a wrong code answers 400 Mfa.InvalidCode and is logged without the code', async () => {
    const { user, device } = await userWithTotp();
    const jar = await pendingJar(user);
    const wrong = await wrongCode(device);
    expectProblem(await mfaLogin(jar, wrong), 400, 'Mfa.InvalidCode');
    expectProblem(await mfaLogin(jar, 'abcdef'), 400, 'Mfa.InvalidCode');
    // The pending sign-in survives a wrong code.
    expect((await mfaLogin(jar, await device.code())).status).toBe(200);
    const entries = await expectLogged(host, admin.jar, 'auth.second-factor-failed', (e) => e.UserId === user.id && e.Success === false);
    expect(JSON.stringify(entries)).not.toContain(wrong);
  });

  it('a code already used answers 400 Mfa.CodeReplayed, also on the next sign-in', async () => {
    const { user, device } = await userWithTotp();
    expect((await mfaLogin(await pendingJar(user), await device.code())).status).toBe(200);
    expectProblem(await mfaLogin(await pendingJar(user), await device.replay()), 400, 'Mfa.CodeReplayed');
    // An older code than the last one used is refused the same way.
    if (device.last - 1 >= TotpDevice.step() - 1)
      expectProblem(await mfaLogin(await pendingJar(user), await device.codeAt(device.last - 1)), 400, 'Mfa.CodeReplayed');
  });

  it('five wrong codes end the pending sign-in (the first factor must be proven again)', async () => {
    // Per-user ceiling raised so the pending sign-in's own limit is what ends it.
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, {
      RateLimits: { ...ROOMY_SOURCE_LIMITS, 'mfa-login': { Source: { Points: 1000, DurationSeconds: 60 }, Target: { Points: 1000, DurationSeconds: 60 } } },
    });
    const user = await makeUser(realm.host, a.jar);
    const device = await enrolTotp(realm.host, await signedIn(realm.host, user));
    const { jar } = await passwordStep(realm.host, user.userName, user.password);
    const wrong = await wrongCode(device);
    for (let i = 0; i < 5; i++)
      expectProblem(await api(realm.host, 'POST', '/api/account/mfa/login', { cookie: jar, body: { Code: wrong } }), 400, 'Mfa.InvalidCode');
    expectProblem(await api(realm.host, 'POST', '/api/account/mfa/login', { cookie: jar, body: { Code: await device.code() } }), 401, 'SignIn.NoPendingSignIn');
  });
});

describe('mfa-login rate limits', () => {
  it('per user: the sixth second-step try within five minutes answers 429 (target)', async () => {
    const { user, device } = await userWithTotp();
    const wrong = await wrongCode(device);
    const first = await pendingJar(user);
    for (let i = 0; i < 3; i++) expectProblem(await mfaLogin(first, wrong), 400, 'Mfa.InvalidCode');
    // A fresh pending sign-in does not reset the per-user count.
    const second = await pendingJar(user);
    // Only wrong codes count (the right one at enrolment gave its hit back): 3 + 2 = 5.
    for (let i = 0; i < 2; i++) expectProblem(await mfaLogin(second, wrong), 400, 'Mfa.InvalidCode');
    const res = await mfaLogin(second, await device.code());
    expectProblem(res, 429);
    expect(res.body).toMatchObject({ error: 'rate_limited', policy: 'mfa-login', dimension: 'target' });
    expect(res.body.retryAfterSeconds).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBe(res.body.retryAfterSeconds);
  });

  it('per source address: past the ceiling, 429 (source)', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, { RateLimits: { 'mfa-login': { Source: { Points: 2, DurationSeconds: 600 } } } });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push(await api(realm.host, 'POST', '/api/account/mfa/login', { body: { Code: '123456' } }));
    expect(codes.slice(0, 2).map((r) => r.status)).toEqual([401, 401]);
    expectProblem(codes[2], 429);
    expect(codes[2].body).toMatchObject({ error: 'rate_limited', policy: 'mfa-login', dimension: 'source' });
  });
});

describe('disable', () => {
  it('needs a session and a current code; a wrong or replayed code is refused; then 2FA is off', async () => {
    const { user, device } = await userWithTotp();
    expectProblem(await api(host, 'POST', '/api/account/mfa/disable', { body: { Code: '123456' } }), 401, 'Auth.Unauthenticated');
    const jar = await pendingJar(user);
    expect((await mfaLogin(jar, await device.code())).status).toBe(200);
    expectProblem(await api(host, 'POST', '/api/account/mfa/disable', { cookie: jar, body: { Code: await wrongCode(device) } }), 400, 'Mfa.InvalidCode');
    expectProblem(await api(host, 'POST', '/api/account/mfa/disable', { cookie: jar, body: { Code: await device.replay() } }), 400, 'Mfa.CodeReplayed');
    const off = await api(host, 'POST', '/api/account/mfa/disable', { cookie: jar, body: { Code: await device.code() } });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({ TwoFactorEnabled: false });
    expect((await api(host, 'GET', '/api/account/mfa/status', { cookie: jar })).body).toEqual({ enabled: false, hasAuthenticator: false });
    expectProblem(await api(host, 'POST', '/api/account/mfa/disable', { cookie: jar, body: { Code: '123456' } }), 400, 'Mfa.NotEnabled');
    // The password alone signs in again.
    const { res } = await passwordStep(host, user.userName, user.password);
    expect(res.body).toEqual({ authenticated: true, userId: user.id, userName: user.userName });
    await expectLogged(host, admin.jar, 'auth.two-factor-disabled', (e) => e.UserId === user.id);
  });

  it('is refused with 403 while 2FA is required for the user', async () => {
    const { user, jar } = await userWithSession();
    const device = await enrolTotp(host, jar);
    const put = await api(host, 'PUT', `/api/admin/users/${user.id}/grace/policy`, { cookie: admin.jar, body: { Policy: 'Required' } });
    expect(put.status, put.text).toBe(200);
    const res = await api(host, 'POST', '/api/account/mfa/disable', { cookie: jar, body: { Code: await device.code() } });
    expectProblem(res, 403, 'Mfa.Required');
    expect(res.body.title).toMatch(/required/i);
    expect((await api(host, 'GET', '/api/account/mfa/status', { cookie: jar })).body.enabled).toBe(true);
  });
});

describe('secure set-up', () => {
  it('within the grace period the password signs in, with the deadline in the outcome', async () => {
    const user = await makeUser(host, admin.jar);
    await api(host, 'PUT', `/api/admin/users/${user.id}/grace/policy`, { cookie: admin.jar, body: { Policy: 'Required' } });
    const { res } = await passwordStep(host, user.userName, user.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ authenticated: true, requiresSecureSetup: true, gracePeriod: true });
    const due = new Date(res.body.secureSetupDueAt).getTime();
    expect(Math.abs(due - (Date.now() + 14 * 86_400_000))).toBeLessThan(120_000);
  });

  it('after the grace period: blocked, and the pending cookie only allows setup and verify, which then sign in', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, { RateLimits: ROOMY_SOURCE_LIMITS, TwoFactor: { GracePeriodDays: 0 } });
    const user = await makeUser(realm.host, a.jar);
    await api(realm.host, 'PUT', `/api/admin/users/${user.id}/grace/policy`, { cookie: a.jar, body: { Policy: 'Required' } });
    const { res, jar } = await passwordStep(realm.host, user.userName, user.password);
    expect(res.body).toEqual({ requiresSecureSetup: true, gracePeriod: false });
    expect(cookieFrom(res.setCookies, SESSION_COOKIE)).toBeUndefined();
    expectProblem(await api(realm.host, 'GET', '/api/account/me', { cookie: jar }), 401);
    expectProblem(await api(realm.host, 'POST', '/api/account/mfa/login', { cookie: jar, body: { Code: '123456' } }), 403, 'SignIn.SetupOnly');
    const setup = await api(realm.host, 'POST', '/api/account/mfa/setup', { cookie: jar });
    expect(setup.status, setup.text).toBe(200);
    const device = new TotpDevice(setup.body.SharedKey);
    expectProblem(await api(realm.host, 'POST', '/api/account/mfa/verify', { cookie: jar, body: { Code: await wrongCode(device) } }), 400, 'Mfa.InvalidCode');
    const verify = await api(realm.host, 'POST', '/api/account/mfa/verify', { cookie: jar, body: { Code: await device.code() } });
    expect(verify.status, verify.text).toBe(200);
    expect(verify.body).toEqual({ authenticated: true, userId: user.id, userName: user.userName });
    expect(cookieFrom(verify.setCookies, SESSION_COOKIE)).toBeTruthy();
    expect((await api(realm.host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(200);
    const info = await api(realm.host, 'GET', `/api/admin/users/${user.id}/security-info`, { cookie: a.jar });
    expect(info.body).toMatchObject({ TwoFactorEnabled: true, HasAuthenticator: true, TwoFactorRequired: true, GracePeriodActive: false });
    expect(info.body.SecureSetupDueAt).toBeUndefined();
    // The next sign-in asks for the second factor as usual.
    const next = await passwordStep(realm.host, user.userName, user.password);
    expect(next.res.body.requiresTwoFactor).toBe(true);
  });

  it('a pending cookie of an ordinary second step cannot change the authenticator', async () => {
    const { user } = await userWithTotp();
    const jar = await pendingJar(user);
    expectProblem(await api(host, 'POST', '/api/account/mfa/setup', { cookie: jar }), 401, 'Auth.Unauthenticated');
    expectProblem(await api(host, 'POST', '/api/account/mfa/verify', { cookie: jar, body: { Code: '123456' } }), 401, 'Auth.Unauthenticated');
  });
});

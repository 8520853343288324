import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, CookieJar, createRealm, expectProblem, realmWithAdmin, type ApiResponse, type SignedIn } from '../support/harness';
import { cookieFrom } from '../support/http';
import { mailCount, waitForMail } from '../support/mailbox';
import { makeUser, signedIn } from '../users/fixtures';
import {
  enrolTotp,
  expectLogged,
  median,
  passwordStep,
  patchSettings,
  PENDING_COOKIE,
  ROOMY_SOURCE_LIMITS,
  securityLogText,
  SESSION_COOKIE,
  timed,
} from '../mfa/fixtures';

// E-mail one-time codes (spec 4.3, 5.5, 5.6, 7, 8; CONTRACT.md "Account bodies"): the code mail,
// sign-in with it, wrong / reused / exhausted codes, anti-enumeration (same answer and same time
// for an address without an account), the realm switch, the rate limits, and the code as the
// second step of a password sign-in.
let host: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  await patchSettings(host, admin.jar, { RateLimits: ROOMY_SOURCE_LIMITS });
});

const request = (h: string, body: unknown, cookie?: CookieJar) => api(h, 'POST', '/api/account/email-otp/login/request', { body, cookie });
const login = (h: string, body: unknown, cookie?: CookieJar) => api(h, 'POST', '/api/account/email-otp/login', { body, cookie });

async function mailedCode(h: string, email: string): Promise<string> {
  const before = await mailCount(email);
  const res = await request(h, { Email: email });
  expect(res.status, res.text).toBe(200);
  const mail = await waitForMail(email, { after: before, subject: /sign-in code/ });
  expect(mail.code, mail.text).toMatch(/^\d{6}$/);
  return mail.code!;
}

/** The parts of a problem answer that must not differ between a known and an unknown address. */
const shape = (r: ApiResponse) => ({
  status: r.status,
  contentType: r.contentType,
  code: r.body?.code,
  title: r.body?.title,
  type: r.body?.type,
  detail: r.body?.detail,
  keys: Object.keys(r.body ?? {}).sort(),
});

describe('status', () => {
  it('needs a session; answers the realm switch, the address and whether it is confirmed', async () => {
    expectProblem(await api(host, 'GET', '/api/account/email-otp/status'), 401);
    const user = await makeUser(host, admin.jar);
    const res = await api(host, 'GET', '/api/account/email-otp/status', { cookie: await signedIn(host, user) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Enabled: true, Email: user.email, EmailConfirmed: false });
  });
});

describe('first factor', () => {
  it('mails a six-digit code valid ten minutes; the code signs in once and confirms the address', async () => {
    const user = await makeUser(host, admin.jar);
    const before = await mailCount(user.email);
    const res = await request(host, { Email: user.email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    const mail = await waitForMail(user.email, { after: before });
    expect(mail.subject).toMatch(/sign-in code/i);
    expect(mail.text).toMatch(/10 minutes/);
    const jar = new CookieJar();
    const ok = await login(host, { email: user.email, code: mail.code }, jar);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ authenticated: true, userId: user.id, userName: user.userName });
    expect(cookieFrom(ok.setCookies, SESSION_COOKIE)).toBeTruthy();
    const status = await api(host, 'GET', '/api/account/email-otp/status', { cookie: jar });
    expect(status.body.EmailConfirmed).toBe(true);
    expectProblem(await login(host, { Email: user.email, Code: mail.code }), 400, 'Code.Invalid');
    await expectLogged(host, admin.jar, 'auth.login-succeeded', (e) => e.UserId === user.id && JSON.stringify(e.Detail).includes('otp'));
    expect(await securityLogText(host, admin.jar)).not.toContain(mail.code);
  });

  it('a newer code replaces the older one', async () => {
    const user = await makeUser(host, admin.jar);
    const first = await mailedCode(host, user.email);
    const second = await mailedCode(host, user.email);
    if (first !== second) expectProblem(await login(host, { Email: user.email, Code: first }), 400, 'Code.Invalid');
    expect((await login(host, { Email: user.email, Code: second })).status).toBe(200);
  });

  it('wrong codes answer 400 Code.Invalid, the fifth one Code.TooManyAttempts, and then even the right code fails', async () => {
    const user = await makeUser(host, admin.jar);
    const code = await mailedCode(host, user.email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i++) expectProblem(await login(host, { Email: user.email, Code: wrong }), 400, 'Code.Invalid');
    expectProblem(await login(host, { Email: user.email, Code: wrong }), 400, 'Code.TooManyAttempts');
    expectProblem(await login(host, { Email: user.email, Code: code }), 400, 'Code.TooManyAttempts');
    await expectLogged(host, admin.jar, 'auth.email-otp-failed', (e) => e.Success === false);
  });

  it('a user with an authenticator still gets the second step, without e-mail as second factor', async () => {
    const user = await makeUser(host, admin.jar);
    await enrolTotp(host, await signedIn(host, user));
    const code = await mailedCode(host, user.email);
    const res = await login(host, { Email: user.email, Code: code });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requiresTwoFactor: true, mfaMethods: ['totp'] });
    expect(cookieFrom(res.setCookies, PENDING_COOKIE)).toBeTruthy();
    expect(cookieFrom(res.setCookies, SESSION_COOKIE)).toBeUndefined();
  });

  it('a deactivated user gets no mail and no sign-in', async () => {
    const user = await makeUser(host, admin.jar, { IsActive: false });
    const before = await mailCount(user.email);
    expect((await request(host, { Email: user.email })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await mailCount(user.email)).toBe(before);
  });

  it('rejects a malformed body with 400 Validation.Failed', async () => {
    expectProblem(await request(host, { Email: 'not-an-address' }), 400, 'Validation.Failed');
    expectProblem(await login(host, { Email: 'a@example.test' }), 400, 'Validation.Failed');
    // Neither an address nor a pending sign-in.
    const none = await request(host, {});
    expectProblem(none, 400, 'Validation.Failed');
    expect(Object.keys(none.body.errors)).toEqual(['Email']);
  });
});

describe('anti-enumeration', () => {
  it('an address without an account: the same answer, no mail, and a login answered like a wrong code', async () => {
    const user = await makeUser(host, admin.jar);
    const ghost = `ghost-${user.userName}@example.test`;
    const known = await request(host, { Email: user.email });
    const unknown = await request(host, { Email: ghost });
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    expect(unknown.contentType).toBe(known.contentType);
    expect(unknown.setCookies).toEqual(known.setCookies);
    await waitForMail(user.email);
    expect(await mailCount(ghost)).toBe(0);
    const wrongKnown = await login(host, { Email: user.email, Code: '000000' });
    const wrongUnknown = await login(host, { Email: ghost, Code: '000000' });
    expectProblem(wrongUnknown, 400, 'Code.Invalid');
    expect(shape(wrongUnknown)).toEqual(shape(wrongKnown));
    // Exhausting the code reads the same too.
    for (let i = 0; i < 3; i++) {
      await login(host, { Email: user.email, Code: '000000' });
      await login(host, { Email: ghost, Code: '000000' });
    }
    const lastKnown = await login(host, { Email: user.email, Code: '000000' });
    const lastUnknown = await login(host, { Email: ghost, Code: '000000' });
    expectProblem(lastUnknown, 400, 'Code.TooManyAttempts');
    expect(shape(lastUnknown)).toEqual(shape(lastKnown));
  });

  it('takes the same time whether or not the address has an account (medians within 10%)', async () => {
    // A realm of its own, with room for repeated requests to one mailbox.
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, {
      RateLimits: { 'email-otp-request': { Source: { Points: 1000, DurationSeconds: 60 }, Target: { Points: 1000, DurationSeconds: 60 } } },
    });
    const user = await makeUser(realm.host, a.jar);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 10; i++) {
      const k = await timed(() => request(realm.host, { Email: user.email }));
      const u = await timed(() => request(realm.host, { Email: `nobody-${i}@example.test` }));
      expect([k.value.status, u.value.status]).toEqual([200, 200]);
      expect(u.value.text).toBe(k.value.text);
      if (i === 0) continue; // warm-up
      known.push(k.ms);
      unknown.push(u.ms);
    }
    const mk = median(known);
    const mu = median(unknown);
    expect(Math.abs(mk - mu) / Math.max(mk, mu), `known ${known.map(Math.round)} unknown ${unknown.map(Math.round)}`).toBeLessThan(0.1);
    expect(Math.min(...known, ...unknown)).toBeGreaterThanOrEqual(380);
  });
});

describe('realm switch', () => {
  it('answers 403 SignIn.MethodDisabled when the realm turned e-mail codes off', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, { SignIn: { EmailOtp: false } });
    expectProblem(await request(realm.host, { Email: a.email }), 403, 'SignIn.MethodDisabled');
    expectProblem(await request(realm.host, { Email: 'nobody@example.test' }), 403, 'SignIn.MethodDisabled');
    expectProblem(await login(realm.host, { Email: a.email, Code: '123456' }), 403, 'SignIn.MethodDisabled');
    const status = await api(realm.host, 'GET', '/api/account/email-otp/status', { cookie: a.jar });
    expect(status.body.Enabled).toBe(false);
  });
});

describe('rate limits', () => {
  it('per mailbox: the sixth request in 15 minutes answers 429 (target), for an unknown address alike', async () => {
    const user = await makeUser(host, admin.jar);
    for (const email of [user.email, `nobody-rl-${user.userName}@example.test`]) {
      for (let i = 0; i < 5; i++) expect((await request(host, { Email: email })).status).toBe(200);
      const res = await request(host, { Email: email.toUpperCase() });
      expectProblem(res, 429);
      expect(res.body).toMatchObject({ error: 'rate_limited', policy: 'email-otp-request', dimension: 'target' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('per mailbox: the eleventh login try in 15 minutes answers 429 (target)', async () => {
    const email = `nobody-login-rl-${Date.now()}@example.test`;
    for (let i = 0; i < 10; i++) expect((await login(host, { Email: email, Code: '000000' })).status).toBe(400);
    const res = await login(host, { Email: email, Code: '000000' });
    expectProblem(res, 429);
    expect(res.body).toMatchObject({ error: 'rate_limited', policy: 'email-otp-login', dimension: 'target' });
  });

  it('per source address: past the ceiling, 429 (source)', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await patchSettings(realm.host, a.jar, { RateLimits: { 'email-otp-request': { Source: { Points: 3, DurationSeconds: 600 } } } });
    for (let i = 0; i < 3; i++) expect((await request(realm.host, { Email: `n${i}@example.test` })).status).toBe(200);
    const res = await request(realm.host, { Email: 'n9@example.test' });
    expectProblem(res, 429);
    expect(res.body).toMatchObject({ error: 'rate_limited', policy: 'email-otp-request', dimension: 'source' });
  });
});

describe('second step of a password sign-in', () => {
  it('with the pending cookie and no address, the code goes to the account and finishes the sign-in', async () => {
    const user = await makeUser(host, admin.jar);
    await enrolTotp(host, await signedIn(host, user));
    const { res, jar } = await passwordStep(host, user.userName, user.password);
    expect(res.body).toEqual({ requiresTwoFactor: true, mfaMethods: ['totp', 'email-otp'] });
    const before = await mailCount(user.email);
    const sent = await request(host, {}, jar);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toEqual({});
    const mail = await waitForMail(user.email, { after: before });
    expect(mail.text).toMatch(/finish signing in/);
    expectProblem(await login(host, { Code: mail.code === '000000' ? '000001' : '000000' }, jar), 400, 'Code.Invalid');
    const ok = await login(host, { Code: mail.code }, jar);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ authenticated: true, userId: user.id, userName: user.userName });
    expect(cookieFrom(ok.setCookies, SESSION_COOKIE)).toBeTruthy();
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(200);
    // The pending cookie is gone: a second try is a first-factor request without an address.
    expectProblem(await login(host, { Code: mail.code }, jar), 400, 'Validation.Failed');
  });

  it('an expired or missing pending sign-in answers 401 SignIn.NoPendingSignIn', async () => {
    const junk = `${PENDING_COOKIE}=${'y'.repeat(43)}`;
    expectProblem(await api(host, 'POST', '/api/account/email-otp/login/request', { body: {}, cookie: junk }), 401, 'SignIn.NoPendingSignIn');
    expectProblem(await api(host, 'POST', '/api/account/email-otp/login', { body: { Code: '123456' }, cookie: junk }), 401, 'SignIn.NoPendingSignIn');
  });

  it('a pending sign-in that began with an e-mail code cannot use e-mail again (403)', async () => {
    const user = await makeUser(host, admin.jar);
    await enrolTotp(host, await signedIn(host, user));
    const code = await mailedCode(host, user.email);
    const jar = new CookieJar();
    expect((await login(host, { Email: user.email, Code: code }, jar)).body.requiresTwoFactor).toBe(true);
    expectProblem(await request(host, {}, jar), 403, 'SignIn.MethodDisabled');
  });
});

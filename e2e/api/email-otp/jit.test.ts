import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, CookieJar, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';
import { cookieFrom } from '../support/http';
import { mailCount, waitForMail } from '../support/mailbox';
import { MAIN_APP_ID, makeUser } from '../users/fixtures';
import { expectLogged, patchSettings, ROOMY_SOURCE_LIMITS, SESSION_COOKIE } from '../mfa/fixtures';

// The JitOnOtp self-registration posture (spec 2.5: "an unknown e-mail signing in by code gets an
// account"): the request mails a code to an address without an account (same `{}` answer), the
// code creates the account (user name = the address, address confirmed) and signs in; with
// RequireInviteCode the creation needs a valid InviteCode, consumed once. With the Off and
// ExplicitEndpoint postures an unknown address still gets no mail and no account.
let host: string;
let admin: SignedIn;

const LIMITS = { ...ROOMY_SOURCE_LIMITS, 'invite-code-redeem': { Source: { Points: 10_000, DurationSeconds: 60 } } };

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  await patchSettings(host, admin.jar, { RateLimits: LIMITS });
});

const newEmail = () => `jit-${randomBytes(5).toString('hex')}@example.test`;
const request = (body: unknown) => api(host, 'POST', '/api/account/email-otp/login/request', { body });
const login = (body: unknown, cookie?: CookieJar) => api(host, 'POST', '/api/account/email-otp/login', { body, cookie });
const posture = (Posture: string, RequireInviteCode = false) => patchSettings(host, admin.jar, { SelfRegistration: { Posture, RequireInviteCode } });

async function mailedCode(email: string): Promise<string> {
  const before = await mailCount(email);
  const res = await request({ Email: email });
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({});
  const mail = await waitForMail(email, { after: before, subject: /sign-in code/ });
  expect(mail.code, mail.text).toMatch(/^\d{6}$/);
  return mail.code!;
}

async function findUser(email: string): Promise<any[]> {
  const res = await api(host, 'GET', `/api/user?search=${encodeURIComponent(email)}`, { cookie: admin.jar });
  expect(res.status, res.text).toBe(200);
  const items = Array.isArray(res.body) ? res.body : (res.body.Items ?? res.body.items ?? []);
  return items.filter((u: any) => String(u.Email).toLowerCase() === email.toLowerCase());
}

describe('JitOnOtp', () => {
  it.each(['Off', 'ExplicitEndpoint'])('with Posture %s an unknown address gets the same {} and no mail, and no code creates an account', async (p) => {
    await posture(p);
    const email = newEmail();
    const res = await request({ Email: email });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailCount(email)).toBe(0);
    expectProblem(await login({ Email: email, Code: '123456' }), 400, 'Code.Invalid');
    expect(await findUser(email)).toHaveLength(0);
  });

  it('mails a code to an unknown address; the code creates the account (confirmed, user name = address) and signs in', async () => {
    await posture('JitOnOtp');
    const email = newEmail();
    const shown = email.replace('jit-', 'Jit-');
    const code = await mailedCode(shown.toLowerCase());
    const jar = new CookieJar();
    const ok = await login({ Email: shown, Code: code }, jar);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ authenticated: true, userName: shown });
    expect(cookieFrom(ok.setCookies, SESSION_COOKIE)).toBeTruthy();
    const me = await api(host, 'GET', '/api/account/email-otp/status', { cookie: jar });
    expect(me.body).toEqual({ Enabled: true, Email: shown, EmailConfirmed: true });
    const [user] = await findUser(email);
    expect(user).toBeTruthy();
    expect(user.Id ?? user.id).toBe(ok.body.userId);
    // The code is used up; a second login with it neither signs in nor creates anything.
    expectProblem(await login({ Email: email, Code: code }), 400, 'Code.Invalid');
    expect(await findUser(email)).toHaveLength(1);
    // The next sign-in by code finds the account.
    const again = await mailedCode(email);
    const second = await login({ Email: email, Code: again });
    expect(second.status, second.text).toBe(200);
    expect(second.body.userId).toBe(ok.body.userId);
    await expectLogged(host, admin.jar, 'auth.login-succeeded', (e) => e.UserId === ok.body.userId);
  });

  it('a wrong code creates nothing and counts as an attempt', async () => {
    await posture('JitOnOtp');
    const email = newEmail();
    const code = await mailedCode(email);
    const wrong = code === '000000' ? '000001' : '000000';
    expectProblem(await login({ Email: email, Code: wrong }), 400, 'Code.Invalid');
    expect(await findUser(email)).toHaveLength(0);
    expect((await login({ Email: email, Code: code })).status).toBe(200);
  });

  it('does not mail a code for an address a deactivated account holds', async () => {
    await posture('JitOnOtp');
    const user = await makeUser(host, admin.jar, { IsActive: false });
    const before = await mailCount(user.email);
    expect((await request({ Email: user.email })).body).toEqual({});
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailCount(user.email)).toBe(before);
  });

  it('with RequireInviteCode: 400 Registration.InviteCodeRequired without one (the code stays usable), InviteCodeInvalid for a wrong one, and a valid one is consumed once', async () => {
    await posture('JitOnOtp', true);
    try {
      const minted = await api(host, 'POST', `/api/app/${MAIN_APP_ID}/invite-codes`, { cookie: admin.jar, body: {} });
      expect(minted.status, minted.text).toBe(201);
      const email = newEmail();
      const code = await mailedCode(email);
      expectProblem(await login({ Email: email, Code: code }), 400, 'Registration.InviteCodeRequired');
      expectProblem(await login({ Email: email, Code: code, InviteCode: 'AAAA-BBBB-CCCC-DDDD-EEEE-FFFF-GGGG' }), 400, 'Registration.InviteCodeInvalid');
      expect(await findUser(email)).toHaveLength(0);
      const ok = await login({ Email: email, Code: code, InviteCode: minted.body.Code.toLowerCase() });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body).toMatchObject({ authenticated: true, userName: email });
      // The invite code is spent: another new address cannot use it.
      const other = newEmail();
      const otherCode = await mailedCode(other);
      expectProblem(await login({ Email: other, Code: otherCode, InviteCode: minted.body.Code }), 400, 'Registration.InviteCodeInvalid');
      expect(await findUser(other)).toHaveLength(0);
      // An existing account signs in by code without an invite code.
      const known = await makeUser(host, admin.jar);
      const knownCode = await mailedCode(known.email);
      expect((await login({ Email: known.email, Code: knownCode })).status).toBe(200);
    } finally {
      await posture('Off');
    }
  });
});

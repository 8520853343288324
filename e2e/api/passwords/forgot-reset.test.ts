import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, eventually, expectProblem, signIn, strongPassword, suite, type SignedIn } from '../support/harness';
import { mailCount, mailsTo, waitForMail } from '../support/mailbox';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';
import { linkTo, median, setRateLimits, tokenIn } from './links';

// Forgot-password and reset-password (spec 4.1, 5.6; CONTRACT.md "Account bodies other tools rely
// on"): the mailed link, single use, the password policy, sessions ending, the continuation, and
// the same answer in the same time whether or not the address has an account.
let host: string;
let domain: string;
let admin: SignedIn;

beforeAll(async () => {
  let slug: string;
  ({ host, domain, slug } = await createRealm());
  admin = await bootstrapAdmin(slug);
  // This file sends more requests from one address than the default ceilings allow; the ceilings
  // themselves are tested in rate-limits.test.ts.
  const roomy = { Source: { Points: 1000, DurationSeconds: 60 }, Target: { Points: 1000, DurationSeconds: 60 } };
  // reset-password counts by source only (an override of another dimension is refused).
  await setRateLimits(host, admin.jar, { 'forgot-password': roomy, 'reset-password': { Source: roomy.Source } });
});

const forgot = (body: Record<string, unknown>, query = '') => api(host, 'POST', `/api/account/forgot-password${query}`, { body });
const reset = (body: Record<string, unknown>) => api(host, 'POST', '/api/account/reset-password', { body });

async function resetMail(user: MadeUser, body: Record<string, unknown> = {}, query = '') {
  const before = await mailCount(user.email);
  const res = await forgot({ Email: user.email, ...body }, query);
  expect(res.status, res.text).toBe(200);
  return waitForMail(user.email, { after: before, subject: /reset/i });
}

describe('the mailed link', () => {
  it('goes to the account address, opens the reset page on the realm origin, and states its lifetime', async () => {
    const user = await makeUser(host, admin.jar);
    const mail = await resetMail(user);
    const link = linkTo(mail, '/reset-password');
    expect(link.origin).toBe(`http://${domain}:${suite().port}`);
    expect(link.searchParams.get('token')!.length).toBeGreaterThanOrEqual(43);
    expect(mail.text).toMatch(/30 minutes/);
    expect(mail.html).toMatch(/30 minutes/);
    expect(mail.to).toEqual([user.email]);
  });

  it('matches the address without regard to case', async () => {
    const user = await makeUser(host, admin.jar);
    const before = await mailCount(user.email);
    expect((await forgot({ email: user.email.toUpperCase() })).status).toBe(200);
    await waitForMail(user.email, { after: before, subject: /reset/i });
  });

  it('a newer link replaces the earlier one', async () => {
    const user = await makeUser(host, admin.jar);
    const first = tokenIn(await resetMail(user), '/reset-password');
    const second = tokenIn(await resetMail(user), '/reset-password');
    expectProblem(await reset({ Email: user.email, Token: first, NewPassword: strongPassword() }), 400, 'Token.Used');
    expect((await reset({ Email: user.email, Token: second, NewPassword: strongPassword() })).status).toBe(200);
  });
});

describe('reset', () => {
  it('sets the password once, ends every session, and the old password stops working', async () => {
    const user = await makeUser(host, admin.jar);
    const session = await signedIn(host, user);
    const token = tokenIn(await resetMail(user), '/reset-password');
    const password = strongPassword();

    const res = await reset({ email: user.email, token, newPassword: password });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({});
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: session }), 401);
    expect((await signIn(host, user.userName, user.password)).res.status).toBe(401);
    expect((await signIn(host, user.userName, password)).res.status).toBe(200);

    expectProblem(await reset({ Email: user.email, Token: token, NewPassword: strongPassword() }), 400, 'Token.Used');
  });

  it('refuses a token sent with another address, an unknown token, and a malformed body', async () => {
    const user = await makeUser(host, admin.jar);
    const other = await makeUser(host, admin.jar);
    const token = tokenIn(await resetMail(user), '/reset-password');
    expectProblem(await reset({ Email: other.email, Token: token, NewPassword: strongPassword() }), 400, 'Token.Invalid');
    expectProblem(await reset({ Email: 'nobody@example.test', Token: token, NewPassword: strongPassword() }), 400, 'Token.Invalid');
    expectProblem(await reset({ Email: user.email, Token: 'A'.repeat(43), NewPassword: strongPassword() }), 400, 'Token.Invalid');
    const bad = await reset({ Email: 'not-an-address', NewPassword: '' });
    expectProblem(bad, 400, 'Validation.Failed');
    expect(Object.keys(bad.body.errors).sort()).toEqual(['Email', 'NewPassword', 'Token']);
    // None of that spent the link.
    expect((await reset({ Email: user.email, Token: token, NewPassword: strongPassword() })).status).toBe(200);
  });

  it('enforces the password policy with the reasons under NewPassword, and keeps the link usable', async () => {
    const user = await makeUser(host, admin.jar);
    const token = tokenIn(await resetMail(user), '/reset-password');
    for (const weak of ['short', 'password123', `${user.userName}-${user.userName}`]) {
      const res = await reset({ Email: user.email, Token: token, NewPassword: weak });
      expectProblem(res, 400, 'User.PasswordTooWeak');
      expect(res.body.errors.NewPassword.length, weak).toBeGreaterThan(0);
    }
    expect((await reset({ Email: user.email, Token: token, NewPassword: strongPassword() })).status).toBe(200);
  });
});

describe('continuation', () => {
  it('carries Redirect through the link and answers it after the reset', async () => {
    const user = await makeUser(host, admin.jar);
    const target = '/connect/authorize?client_id=app&state=xyz';
    const mail = await resetMail(user, { Redirect: target });
    const link = linkTo(mail, '/reset-password');
    expect(link.searchParams.get('redirect')).toBe(target);
    const res = await reset({ Email: user.email, Token: link.searchParams.get('token'), NewPassword: strongPassword() });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ Redirect: target });
  });

  it('accepts the redirect query parameter too', async () => {
    const user = await makeUser(host, admin.jar);
    const mail = await resetMail(user, {}, `?redirect=${encodeURIComponent('/console')}`);
    const res = await reset({ Email: user.email, Token: tokenIn(mail, '/reset-password'), NewPassword: strongPassword() });
    expect(res.body).toEqual({ Redirect: '/console' });
  });

  it.each(['//evil.test/x', 'https://evil.test/', '/\\evil.test', '/a/..//evil.test', 'javascript:alert(1)'])(
    'refuses %j with Continuation.Invalid and mails nothing',
    async (redirect) => {
      const user = await makeUser(host, admin.jar);
      const before = await mailCount(user.email);
      const res = await forgot({ Email: user.email, Redirect: redirect });
      expectProblem(res, 400, 'Continuation.Invalid');
      expect(res.body.errors.Redirect).toBeDefined();
      await new Promise((r) => setTimeout(r, 300));
      expect(await mailCount(user.email)).toBe(before);
    },
  );
});

describe('anti-enumeration (spec 5.6)', () => {
  it('answers an existing, a missing, an inactive and a deleted account identically, and mails only the first', async () => {
    const existing = await makeUser(host, admin.jar);
    const inactive = await makeUser(host, admin.jar, { IsActive: false });
    const deleted = await makeUser(host, admin.jar);
    expect((await api(host, 'DELETE', `/api/user/${deleted.id}`, { cookie: admin.jar })).status).toBeLessThan(300);
    const missing = `missing-${Date.now()}@example.test`;

    const answers = [];
    for (const email of [existing.email, missing, inactive.email, deleted.email]) {
      const res = await forgot({ Email: email });
      answers.push({ status: res.status, body: res.text, type: res.contentType, cookies: res.setCookies.length });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size, JSON.stringify(answers)).toBe(1);
    expect(answers[0]).toMatchObject({ status: 200, body: '{}' });

    await waitForMail(existing.email, { subject: /reset/i });
    await new Promise((r) => setTimeout(r, 500));
    expect(await mailsTo(missing)).toHaveLength(0);
    expect(await mailsTo(inactive.email)).toHaveLength(0);
    expect(await mailsTo(deleted.email)).toHaveLength(0);
  });

  it('takes the same time either way (medians of 8 interleaved requests within 25%)', async () => {
    const existing = await makeUser(host, admin.jar);
    const timed = async (email: string) => {
      const started = performance.now();
      const res = await forgot({ Email: email });
      expect(res.status).toBe(200);
      return performance.now() - started;
    };
    // Warm both paths first (development servers compile on first use).
    await timed(existing.email);
    await timed(`warm-${Date.now()}@example.test`);
    const real: number[] = [];
    const none: number[] = [];
    for (let i = 0; i < 8; i++) {
      real.push(await timed(existing.email));
      none.push(await timed(`nobody-${i}-${Date.now()}@example.test`));
    }
    const [a, b] = [median(real), median(none)];
    console.log(
      `[forgot-password] median existing ${a.toFixed(1)} ms, missing ${b.toFixed(1)} ms, difference ${((Math.abs(a - b) / Math.min(a, b)) * 100).toFixed(1)}%`,
    );
    expect(Math.abs(a - b) / Math.min(a, b)).toBeLessThan(0.25);
    // Both wait for the floor, so neither is fast.
    expect(Math.min(a, b)).toBeGreaterThan(400);
  });
});

describe('security log', () => {
  it('records requests and resets without the token or the unknown address', async () => {
    const user = await makeUser(host, admin.jar);
    const token = tokenIn(await resetMail(user), '/reset-password');
    await reset({ Email: user.email, Token: token, NewPassword: strongPassword() });
    await forgot({ Email: 'ghost@example.test' });
    const entries = await eventually(async () => {
      const res = await api(host, 'GET', '/api/admin/auth-log?limit=1000', { cookie: admin.jar });
      const types = res.body.map((e: { EventType: string }) => e.EventType);
      expect(types).toContain('auth.password-reset');
      expect(types).toContain('auth.password-reset-requested');
      return res;
    });
    expect(entries.text).not.toContain(token);
    expect(entries.text).not.toContain('ghost@example.test');
    const done = entries.body.find((e: { EventType: string; UserId?: string }) => e.EventType === 'auth.password-reset' && e.UserId === user.id);
    expect(done).toBeDefined();
  });
});

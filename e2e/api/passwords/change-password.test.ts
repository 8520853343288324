import { beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, expectProblem, signIn, strongPassword, realmWithAdmin, type SignedIn } from '../support/harness';
import { makeUser, signedIn } from '../users/fixtures';
import { expectRateLimited, setRateLimits } from './links';

// POST /api/account/change-password (spec 4.2; CONTRACT.md "Account bodies other tools rely on").
// (An account without a password, which answers Password.NotSet, cannot get a password session;
// lib/domain/passwords/change-password.test.ts covers it.)
let host: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  // Many requests from one address: the source ceiling is raised, the per-account one stays.
  await setRateLimits(host, admin.jar, { 'change-password': { Source: { Points: 1000, DurationSeconds: 60 } } });
});

const change = (cookie: SignedIn['jar'] | undefined, body: Record<string, unknown>) => api(host, 'POST', '/api/account/change-password', { cookie, body });

describe('change-password', () => {
  it('needs a session', async () => {
    expectProblem(await change(undefined, { CurrentPassword: 'x', NewPassword: strongPassword() }), 401);
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const user = await makeUser(host, admin.jar);
    const here = await signedIn(host, user);
    const elsewhere = await signedIn(host, user);
    const password = strongPassword();

    const res = await change(here, { currentPassword: user.password, newPassword: password });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({});
    expect((await api(host, 'GET', '/api/account/me', { cookie: here })).status).toBe(200);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: elsewhere }), 401);
    expect((await signIn(host, user.userName, user.password)).res.status).toBe(401);
    expect((await signIn(host, user.userName, password)).res.status).toBe(200);
  });

  it('refuses a wrong current password with Password.Incorrect', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const res = await change(jar, { CurrentPassword: `${user.password}-wrong`, NewPassword: strongPassword() });
    expectProblem(res, 400, 'Password.Incorrect');
    expect(res.body.errors.CurrentPassword).toBeDefined();
    expect((await signIn(host, user.userName, user.password)).res.status).toBe(200);
  });

  it('enforces the password policy with the reasons under NewPassword', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    for (const weak of ['short', 'password123', `${user.userName}${user.userName}`]) {
      const res = await change(jar, { CurrentPassword: user.password, NewPassword: weak });
      expectProblem(res, 400, 'User.PasswordTooWeak');
      expect(res.body.errors.NewPassword.length, weak).toBeGreaterThan(0);
    }
  });

  it('validates the body', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const res = await change(jar, { NewPassword: '' });
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors).sort()).toEqual(['CurrentPassword', 'NewPassword']);
  });

  it('limits attempts per account (target): the sixth within the window answers 429', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    for (let i = 0; i < 5; i++) expectProblem(await change(jar, { CurrentPassword: `wrong-${i}`, NewPassword: strongPassword() }), 400, 'Password.Incorrect');
    const limited = await change(jar, { CurrentPassword: user.password, NewPassword: strongPassword() });
    expectRateLimited(limited, 'change-password', 'target');
    // The right password would not have got through either.
    expect((await signIn(host, user.userName, user.password)).res.status).toBe(200);
  });

  it('records failures and changes in the security log', async () => {
    const res = await eventually(async () => {
      const r = await api(host, 'GET', '/api/admin/auth-log?limit=1000', { cookie: admin.jar });
      const types = r.body.map((e: { EventType: string }) => e.EventType);
      expect(types).toContain('auth.password-changed');
      expect(types).toContain('auth.password-change-failed');
      return r;
    });
    expect(res.text).not.toMatch(/wrong-\d|\$argon2/);
  });
});

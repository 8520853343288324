import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, realmWithAdmin, type ApiResponse, type SignedIn } from '../support/harness';
import { expectRateLimited, setRateLimits } from '../passwords/links';
import { makeUser } from '../users/fixtures';

// The password lockout counts guesses per account, not per typed name (issue 8 item 10): the user
// name and the e-mail address, in any letter case, share one allowance; a name with no account is
// locked after as many guesses as one with an account; the per-address ceiling stays.
let host: string;
let admin: SignedIn;
const CEILING = 4;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  await setRateLimits(host, admin.jar, { login: { Source: { Points: 10_000, DurationSeconds: 60 }, Target: { Points: CEILING, DurationSeconds: 300 } } });
});

const login = (userName: string, password: string) => api(host, 'POST', '/api/account/login', { body: { UserName: userName, Password: password } });
const shape = (r: ApiResponse) => ({
  status: r.status,
  keys: Object.keys(r.body ?? {}).sort(),
  error: r.body?.error,
  policy: r.body?.policy,
  dimension: r.body?.dimension,
});

describe('password lockout', () => {
  it('counts the user name and the e-mail address, in any case, against one account', async () => {
    const user = await makeUser(host, admin.jar);
    const variants = [user.userName, user.email.toUpperCase(), user.userName.toUpperCase(), user.email];
    for (const name of variants) expect((await login(name, 'not-the-password')).status).toBe(401);
    // The allowance is spent: even the right password, under a variant not used yet, is refused.
    expectRateLimited(await login(` ${user.email.replace(/^./, (c) => c.toUpperCase())} `, user.password), 'login', 'target');
    expectRateLimited(await login(user.userName, user.password), 'login', 'target');
  });

  it('a name without an account is locked out the same way, so the lockout reveals nothing', async () => {
    const user = await makeUser(host, admin.jar);
    const unknown = `nobody-${user.userName}`;
    for (let i = 0; i < CEILING; i++) {
      expect((await login(user.userName, 'not-the-password')).status).toBe(401);
      expect((await login(unknown, 'not-the-password')).status).toBe(401);
    }
    const known = await login(user.userName, 'not-the-password');
    const none = await login(unknown, 'not-the-password');
    expectRateLimited(known, 'login', 'target');
    expectRateLimited(none, 'login', 'target');
    expect(shape(none)).toEqual(shape(known));
  });

  it('a successful sign-in clears the account allowance, whichever name was used', async () => {
    const user = await makeUser(host, admin.jar);
    for (let i = 0; i < CEILING - 1; i++) expect((await login(user.email, 'not-the-password')).status).toBe(401);
    expect((await login(user.userName.toUpperCase(), user.password)).status).toBe(200);
    for (let i = 0; i < CEILING - 1; i++) expect((await login(user.email, 'not-the-password')).status).toBe(401);
    expect((await login(user.userName, user.password)).status).toBe(200);
  });
});

describe('the per-address ceiling stays', () => {
  it('refuses an address past its ceiling whatever names it tries', async () => {
    const realm = await createRealm();
    const a = await bootstrapAdmin(realm.slug);
    await setRateLimits(realm.host, a.jar, { login: { Source: { Points: 3, DurationSeconds: 300 } } });
    for (let i = 0; i < 3; i++)
      expect((await api(realm.host, 'POST', '/api/account/login', { body: { UserName: `someone-${i}`, Password: 'x' } })).status).toBe(401);
    expectRateLimited(await api(realm.host, 'POST', '/api/account/login', { body: { UserName: 'someone-else', Password: 'x' } }), 'login', 'source');
  });
});

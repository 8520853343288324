import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeFlowTokens, rp, webClientBody } from '../oauth/fixtures';
import { api, bootstrapAdmin, CookieJar, createRealm, eventually, expectProblem, signIn, type SignedIn } from '../support/harness';
import { mailCount, waitForMail } from '../support/mailbox';
import { createClient } from '../support/oauth';
import { realmSql } from '../support/realm-sql';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';
import { archiveOf, asProblem, deletionToken, download } from './fixtures';

// The self-deletion workflow (spec 3.5, 4.6; CONTRACT.md "Apps, privacy and manifests"): no request
// -> pending (POST delete-account, a link is mailed) -> deleted (POST confirm-deletion answers the
// archive, masks the personal data and ends every session), or back to no request (cancel).

let host: string;
let slug: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, slug } = await createRealm());
  admin = await bootstrapAdmin(slug);
  // Room for the many requests below from one address (each test file has its own realm).
  const settings = await api(host, 'PATCH', '/api/realm-settings', {
    cookie: admin.jar,
    body: {
      SignIn: { MagicLink: true },
      RateLimits: {
        'account-deletion': { Source: { Points: 1000, DurationSeconds: 60 } },
        'account-deletion-confirm': { Source: { Points: 1000, DurationSeconds: 60 } },
      },
    },
  });
  expect(settings.status, settings.text).toBe(200);
});

const status = (jar: CookieJar) => api(host, 'GET', '/api/auth/deletion-status', { cookie: jar });
const requestDeletion = (jar: CookieJar, body: unknown) => api(host, 'POST', '/api/auth/delete-account', { cookie: jar, body });
const confirm = (token: unknown) => download(host, 'POST', '/api/auth/confirm-deletion', { body: { Token: token } });

describe('before confirmation', () => {
  it('every route needs a signed-in person, except the confirmation (the token is the proof)', async () => {
    expectProblem(await api(host, 'GET', '/api/auth/deletion-status'), 401, 'Auth.Unauthenticated');
    expectProblem(await api(host, 'POST', '/api/auth/delete-account', { body: {} }), 401, 'Auth.Unauthenticated');
    expectProblem(await api(host, 'POST', '/api/auth/cancel-deletion', { body: {} }), 401, 'Auth.Unauthenticated');
    expectProblem(asProblem(await confirm('not-a-token')), 400, 'Token.Invalid');
  });

  it('asks for the password of an account that has one, and refuses a wrong one, without a request', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const before = await mailCount(user.email);
    const missing = await requestDeletion(jar, {});
    expectProblem(missing, 400, 'Validation.Failed');
    expect(missing.body.errors.Password).toEqual(['Enter your password to confirm it is you.']);
    const wrong = await requestDeletion(jar, { Password: 'not the password' });
    expectProblem(wrong, 400, 'Password.Incorrect');
    expect(wrong.body.errors.Password).toEqual(['The password is not correct.']);
    expect((await status(jar)).body).toEqual({ Status: 'None' });
    expect(await mailCount(user.email)).toBe(before);
    const tooLong = await requestDeletion(jar, { Password: 'x'.repeat(1025) });
    expectProblem(tooLong, 400, 'Validation.Failed');
  });

  it('pending after the request (202, a link mailed, the session still works), none after cancelling', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    expect((await status(jar)).body).toEqual({ Status: 'None' });
    const before = await mailCount(user.email);
    const res = await requestDeletion(jar, { Password: user.password });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ Status: 'Pending', RequestedAt: expect.any(String), ExpiresAt: expect.any(String) });
    const lifetime = Date.parse(res.body.ExpiresAt) - Date.parse(res.body.RequestedAt);
    expect(lifetime).toBe(24 * 3600_000);
    expect((await status(jar)).body).toEqual(res.body);
    const token = await deletionToken(user.email, before);
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(200);

    const cancelled = await api(host, 'POST', '/api/auth/cancel-deletion', { cookie: jar, body: {} });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body).toEqual({ Status: 'None' });
    expect((await status(jar)).body).toEqual({ Status: 'None' });
    expectProblem(await api(host, 'POST', '/api/auth/cancel-deletion', { cookie: jar, body: {} }), 409, 'AccountDeletion.NotPending');
    // The cancelled link no longer deletes anything.
    expectProblem(asProblem(await confirm(token)), 400, 'Token.Invalid');
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(200);
  });

  it('a new request replaces the pending one; an expired link is refused', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    let count = await mailCount(user.email);
    expect((await requestDeletion(jar, { Password: user.password })).status).toBe(202);
    const first = await deletionToken(user.email, count);
    count = await mailCount(user.email);
    expect((await requestDeletion(jar, { Password: user.password })).status).toBe(202);
    const second = await deletionToken(user.email, count);
    expectProblem(asProblem(await confirm(first)), 400, 'Token.Used');
    await realmSql(slug, `UPDATE "OneTimeSecret" SET "expiresAt" = "createdAt" WHERE "purpose" = 'account-deletion' AND "userId" = $1`, [user.id]);
    expectProblem(asProblem(await confirm(second)), 400, 'Token.Expired');
    expect((await status(jar)).body).toEqual({ Status: 'None' });
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(200);
    expectProblem(asProblem(await download(host, 'POST', '/api/auth/confirm-deletion', { body: {} })), 400, 'Validation.Failed');
  });

  it('an account without a password confirms by the mailed link alone', async () => {
    const user = await makeUser(host, admin.jar, { Password: undefined });
    // Signed in by a magic link: the account has no password.
    const before = await mailCount(user.email);
    expect((await api(host, 'POST', '/api/account/magic-link/request', { body: { Email: user.email } })).status).toBe(200);
    const jar = await magicLinkSession(user.email, before);
    const res = await requestDeletion(jar, {});
    expect(res.status, res.text).toBe(202);
  });

  it("the realm's last administrator is told at once", async () => {
    const res = await requestDeletion(admin.jar, { Password: admin.password });
    expectProblem(res, 409, 'User.LastAdministrator');
    expect((await status(admin.jar)).body).toEqual({ Status: 'None' });
  });
});

describe('confirmation', () => {
  let user: MadeUser;
  let jar: CookieJar;
  let other: { jar: CookieJar };
  let refreshToken: string;
  let config: oidc.Configuration;
  let token: string;
  /** When the account was deleted: later sign-in attempts under its old names are anybody's. */
  let deletedBy: number;

  beforeAll(async () => {
    user = await makeUser(host, admin.jar, { Firstname: 'Ada', Lastname: 'Lovelace' });
    jar = await signedIn(host, user);
    other = await signIn(host, user.userName, user.password);
    const client = await createClient(host, admin.jar, webClientBody({ ClientId: 'deletion-app' }));
    config = await rp(host, client.ClientId, client.ClientSecret);
    refreshToken = (await codeFlowTokens(host, config, jar, 'openid offline_access')).refresh_token!;
    // A failed sign-in under the person's address, from before the deletion.
    expect((await signIn(host, user.email, 'wrong password')).res.status).toBe(401);
    const before = await mailCount(user.email);
    expect((await requestDeletion(jar, { Password: user.password })).status).toBe(202);
    token = await deletionToken(user.email, before);
  });

  it('two concurrent confirmations: one archive, the other refused', async () => {
    const [a, b] = await Promise.all([confirm(token), confirm(token)]);
    deletedBy = Date.now();
    const won = [a, b].filter((r) => r.status === 200);
    expect(won, [a, b].map((r) => `${r.status} ${r.body.toString('utf8', 0, 200)}`).join(' | ')).toHaveLength(1);
    const lost = asProblem([a, b].find((r) => r.status !== 200)!);
    expectProblem(lost, 400, 'Token.Used');

    const zip = archiveOf(won[0]);
    expect(won[0].headers['content-type']).toBe('application/zip');
    expect(won[0].setCookies.join(';')).toMatch(/gatehouse_session=;/);
    // The archive is the data as it was: the name, the sessions with their addresses, the log.
    expect(zip.get('profile.json')!.json()).toMatchObject({ Id: user.id, UserName: user.userName, Email: user.email, Firstname: 'Ada' });
    expect(zip.get('sessions.json')!.json().BrowserSessions.length).toBeGreaterThanOrEqual(2);
    expect(zip.get('sessions.json')!.json().BrowserSessions[0].IpAddress).toEqual(expect.any(String));
    expect(zip.get('consents.json')!.json().Consents).toEqual([expect.objectContaining({ ClientId: 'deletion-app' })]);
    const log = zip.get('security-log.json')!.json().Entries as { EventType: string; IpAddress?: string }[];
    expect(log.find((e) => e.EventType === 'account.deletion-requested')?.IpAddress).toEqual(expect.any(String));

    // The link is spent for good.
    expectProblem(asProblem(await confirm(token)), 400, 'Token.Used');
  });

  it('every session ended: browsers, the OAuth client and its refresh token', async () => {
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: jar }), 401);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: other.jar }), 401);
    await expect(oidc.refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await realmSql(slug, `SELECT "id" FROM "Session" WHERE "userId" = $1`, [user.id])).toEqual([]);
    expect(await realmSql(slug, `SELECT "id" FROM "OidcPayload" WHERE "accountId" = $1`, [user.id])).toEqual([]);
  });

  it('the old name and password sign in no more; the account is masked and cannot be restored', async () => {
    expectProblem((await signIn(host, user.userName, user.password)).res, 401, 'Auth.InvalidCredentials');
    expectProblem((await signIn(host, user.email, user.password)).res, 401, 'Auth.InvalidCredentials');
    const row = await api(host, 'GET', `/api/user/${user.id}`, { cookie: admin.jar });
    expect(row.status, row.text).toBe(200);
    expect(row.body).toMatchObject({
      Id: user.id,
      UserName: `Deleted user ${user.id}`,
      Email: `deleted-${user.id}@invalid`,
      IsDeleted: true,
      IsActive: false,
      HasPassword: false,
    });
    expect(row.body.Firstname).toBeUndefined();
    expect(row.body.Lastname).toBeUndefined();
    expectProblem(await api(host, 'POST', `/api/user/${user.id}/restore`, { cookie: admin.jar, body: {} }), 409, 'User.Anonymized');
    expectProblem(await api(host, 'POST', '/api/user/restore', { cookie: admin.jar, body: { Ids: [user.id] } }), 409, 'User.Anonymized');
    const lookup = await api(host, 'GET', `/api/user/lookup?search=${encodeURIComponent(user.id.slice(0, 8))}`, { cookie: admin.jar });
    expect(lookup.body.map((u: { Id: string }) => u.Id)).not.toContain(user.id);
    // Its names are free again.
    const reuse = await api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: user.userName, Email: user.email } });
    expect(reuse.status, reuse.text).toBe(201);
  });

  it("the person's log entries keep their type and time, without name, address or browser", async () => {
    const entries = await eventually(async () => {
      const res = await api(host, 'GET', '/api/admin/auth-log?limit=1000', { cookie: admin.jar });
      const theirs = (res.body as Record<string, unknown>[]).filter((e) => e.UserId === user.id);
      expect(theirs.some((e) => e.EventType === 'account.deleted')).toBe(true);
      return { all: res.body as Record<string, unknown>[], theirs };
    });
    expect(entries.theirs.map((e) => e.EventType)).toEqual(expect.arrayContaining(['auth.login-succeeded', 'account.deletion-requested', 'account.deleted']));
    for (const e of entries.theirs) {
      expect(e.UserName).toBeUndefined();
      expect(e.IpAddress).toBeUndefined();
      expect(e.UserAgent).toBeUndefined();
      expect(e.CreatedAt).toEqual(expect.any(String));
    }
    // Nothing from before the deletion names the person any more (the failed sign-in under their address too).
    const naming = entries.all.filter((e) => {
      const text = JSON.stringify(e);
      if (Date.parse(String(e.CreatedAt)) > deletedBy) return false;
      return text.includes(user.email) || text.includes(`"${user.userName}"`) || text.includes('Lovelace');
    });
    expect(naming).toEqual([]);
  });
});

/** Follows the newest magic link mailed to `email` as a browser would; answers the signed-in jar. */
async function magicLinkSession(email: string, after: number): Promise<CookieJar> {
  const mail = await waitForMail(email, { after, subject: /Sign in/ });
  const link = new URL(mail.links.find((l) => l.includes('/api/account/magic-link/login'))!);
  const jar = new CookieJar();
  await api(host, 'GET', `${link.pathname}${link.search}`, { cookie: jar, headers: { accept: 'text/html' } });
  expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(200);
  return jar;
}

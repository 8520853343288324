import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, eventually, expectProblem, signIn, type SignedIn } from '../support/harness';
import { mailCount } from '../support/mailbox';
import { realmSql } from '../support/realm-sql';
import { ADMINISTRATORS, grant, makeUser, signedIn, type MadeUser } from '../users/fixtures';
import { archiveOf, deletionToken, download } from './fixtures';

// DELETE /api/admin/users/{id}/permanent (spec 3.5, 4.7; permission gdpr:admin, body { Reason }):
// the irreversible erasure of a user, recorded with its reason and actor, without the person.
let host: string;
let slug: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, slug } = await createRealm());
  admin = await bootstrapAdmin(slug);
});

const REASON = { Reason: 'Asked by letter of 3 March' };
const erase = (id: string, cookie: SignedIn['jar'], body: unknown = REASON) => api(host, 'DELETE', `/api/admin/users/${id}/permanent`, { cookie, body });

describe('refusals', () => {
  let target: MadeUser;
  beforeAll(async () => {
    target = await makeUser(host, admin.jar);
  });

  it('needs a session and gdpr:admin (user:write is not enough)', async () => {
    expectProblem(await api(host, 'DELETE', `/api/admin/users/${target.id}/permanent`, { body: { Reason: 'x' } }), 401);
    const clerk = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['user:read', 'user:write'], clerk.id);
    expectProblem(await erase(target.id, await signedIn(host, clerk)), 403, 'Auth.Forbidden');
    expect((await api(host, 'GET', `/api/user/${target.id}`, { cookie: admin.jar })).status).toBe(200);
  });

  it('needs a Reason of 1 to 500 characters, with a friendly message', async () => {
    const noBody = await api(host, 'DELETE', `/api/admin/users/${target.id}/permanent`, { cookie: admin.jar });
    expectProblem(noBody, 400, 'Validation.Failed');
    expect(noBody.body.errors.Reason).toEqual(['Give the reason for the erasure.']);
    for (const body of [{}, { Reason: '   ' }, { Reason: 'x'.repeat(501) }, { Reason: 42 }]) {
      const res = await erase(target.id, admin.jar, body);
      expectProblem(res, 400, 'Validation.Failed');
      expect(res.body.errors.Reason[0]).toMatch(/^(Give the reason for the erasure\.|Use at most 500 characters\.)$/);
    }
    expect((await api(host, 'GET', `/api/user/${target.id}`, { cookie: admin.jar })).status).toBe(200);
  });

  it('404 for an unknown user and for a user of another realm', async () => {
    expectProblem(await erase('00000000-0000-4000-8000-00000000ffff', admin.jar), 404, 'User.NotFound');
    const elsewhere = await createRealm();
    const otherAdmin = await bootstrapAdmin(elsewhere.slug);
    const stranger = await makeUser(elsewhere.host, otherAdmin.jar);
    expectProblem(await erase(stranger.id, admin.jar), 404, 'User.NotFound');
    expect((await api(elsewhere.host, 'GET', `/api/user/${stranger.id}`, { cookie: otherAdmin.jar })).status).toBe(200);
  });

  it('not oneself, and not someone who holds more than the actor (no escalation)', async () => {
    expectProblem(await erase(admin.userId!, admin.jar), 400, 'User.CannotEraseSelf');
    const officer = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['gdpr:admin', 'user:read'], officer.id);
    const officerJar = await signedIn(host, officer);
    const secondAdmin = await makeUser(host, admin.jar);
    expect((await api(host, 'POST', `/api/user/${secondAdmin.id}/groups`, { cookie: admin.jar, body: { GroupId: ADMINISTRATORS } })).status).toBe(201);
    const refused = await erase(secondAdmin.id, officerJar);
    expectProblem(refused, 403, 'Auth.Forbidden');
    expect((await api(host, 'GET', `/api/user/${secondAdmin.id}`, { cookie: admin.jar })).status).toBe(200);
    // Someone holding no more than the officer can be erased by them.
    const plain = await makeUser(host, admin.jar);
    expect((await erase(plain.id, officerJar)).status).toBe(204);
  });
});

describe('erasure', () => {
  it('removes the user and what hangs off it, scrubs their log entries, and records the reason and actor only', async () => {
    const user = await makeUser(host, admin.jar, { Firstname: 'Erin', Lastname: 'Erased' });
    const jar = await signedIn(host, user);
    expect((await signIn(host, user.email, 'a wrong password')).res.status).toBe(401);
    expect((await api(host, 'PUT', '/api/account/profile/request', { cookie: jar, body: { Firstname: 'Erina' } })).status).toBe(200);

    const erasedBy = Date.now();
    const res = await erase(user.id, admin.jar, { Reason: '  Court order 17/2026  ' });
    expect(res.status, res.text).toBe(204);

    expectProblem(await api(host, 'GET', `/api/user/${user.id}`, { cookie: admin.jar }), 404, 'User.NotFound');
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: jar }), 401);
    expectProblem((await signIn(host, user.userName, user.password)).res, 401, 'Auth.InvalidCredentials');
    expectProblem(await erase(user.id, admin.jar), 404, 'User.NotFound');
    for (const table of ['Session', 'UserChangeRequest', 'OneTimeSecret', 'GroupMember']) {
      expect(await realmSql(slug, `SELECT 1 FROM "${table}" WHERE "userId" = $1`, [user.id]), table).toEqual([]);
    }

    const log = await eventually(async () => {
      const r = await api(host, 'GET', '/api/admin/auth-log?limit=1000', { cookie: admin.jar });
      expect((r.body as { EventType: string }[]).some((e) => e.EventType === 'user.erased')).toBe(true);
      return r.body as Record<string, any>[];
    });
    const erased = log.find((e) => e.EventType === 'user.erased' && e.Detail?.userId === user.id)!;
    expect(erased).toMatchObject({
      Category: 'UserAdministration',
      UserId: admin.userId,
      UserName: admin.userName,
      Detail: { userId: user.id, reason: 'Court order 17/2026' },
    });
    const theirs = log.filter((e) => e.UserId === user.id);
    expect(theirs.map((e) => e.EventType)).toEqual(expect.arrayContaining(['auth.login-succeeded', 'user.change-requested']));
    for (const e of theirs) expect([e.UserName, e.IpAddress, e.UserAgent]).toEqual([undefined, undefined, undefined]);
    // Nothing from before the erasure names the person (later attempts under the old names are anybody's).
    const naming = log.filter(
      (e) => Date.parse(e.CreatedAt) <= erasedBy && (JSON.stringify(e).includes(user.email) || JSON.stringify(e).includes(`"${user.userName}"`)),
    );
    expect(naming).toEqual([]);
  });

  it('also erases an account whose own deletion masked it', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const before = await mailCount(user.email);
    expect((await api(host, 'POST', '/api/auth/delete-account', { cookie: jar, body: { Password: user.password } })).status).toBe(202);
    archiveOf(await download(host, 'POST', '/api/auth/confirm-deletion', { body: { Token: await deletionToken(user.email, before) } }));
    expect((await api(host, 'GET', `/api/user/${user.id}`, { cookie: admin.jar })).body.IsDeleted).toBe(true);
    expect((await erase(user.id, admin.jar)).status).toBe(204);
    expectProblem(await api(host, 'GET', `/api/user/${user.id}`, { cookie: admin.jar }), 404, 'User.NotFound');
  });
});

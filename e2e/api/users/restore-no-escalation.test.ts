import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectProblem, realmWithAdmin, signIn, type CookieJar, type SignedIn } from '../support/harness';
import { ADMINISTRATORS, grant, makeUser, REALM_ADMIN_ROLE, signedIn, type MadeUser } from './fixtures';

// Restoring a soft-deleted user gives them back everything their groups hold, so it follows the
// no-escalation rule like deleting them: `user:write` alone brings back an ordinary user, never one
// who holds more than the caller (a deleted administrator). A refused list changes nothing.
let host: string;
let admin: SignedIn;
let operator: CookieJar;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
  const user = await makeUser(host, admin.jar);
  await grant(host, admin.jar, ['user:read', 'user:write'], user.id);
  operator = await signedIn(host, user);
});

async function deleted(extraGroup?: string): Promise<MadeUser> {
  const u = await makeUser(host, admin.jar);
  if (extraGroup) {
    const join = await api(host, 'POST', `/api/user/${u.id}/groups`, { cookie: admin.jar, body: { GroupId: extraGroup } });
    expect(join.status, join.text).toBe(201);
  }
  const del = await api(host, 'DELETE', `/api/user/${u.id}`, { cookie: admin.jar });
  expect(del.status, del.text).toBe(204);
  return u;
}

async function isDeleted(id: string): Promise<boolean> {
  const res = await api(host, 'GET', `/api/user/${id}`, { cookie: admin.jar });
  expect(res.status, res.text).toBe(200);
  return res.body.IsDeleted;
}

describe('restoring a deleted user runs the no-escalation rule', () => {
  it('user:write cannot restore a deleted administrator, alone or in a list; it stays deleted', async () => {
    const administrator = await deleted(ADMINISTRATORS);
    const ordinary = await deleted();

    const single = await api(host, 'POST', `/api/user/${administrator.id}/restore`, { cookie: operator });
    expectProblem(single, 403, 'Auth.Forbidden');
    expect(single.body.detail).toContain('realm:admin');
    expect(await isDeleted(administrator.id)).toBe(true);

    // All or nothing: the ordinary user in the same list is not restored either.
    expectProblem(await api(host, 'POST', '/api/user/restore', { cookie: operator, body: { Ids: [ordinary.id, administrator.id] } }), 403, 'Auth.Forbidden');
    expect(await isDeleted(administrator.id)).toBe(true);
    expect(await isDeleted(ordinary.id)).toBe(true);

    // The sign-in stays refused.
    expect((await signIn(host, administrator.userName, administrator.password)).res.status).toBe(401);
  });

  it('user:write restores an ordinary user, singly and in bulk', async () => {
    const one = await deleted();
    const back = await api(host, 'POST', `/api/user/${one.id}/restore`, { cookie: operator });
    expect(back.status, back.text).toBe(200);
    expect(back.body.IsDeleted).toBe(false);

    const a = await deleted();
    const b = await deleted();
    const bulk = await api(host, 'POST', '/api/user/restore', { cookie: operator, body: { Ids: [a.id, b.id] } });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body).toEqual({ Restored: [a.id, b.id], NotFound: [] });
    expect(await isDeleted(a.id)).toBe(false);
    expect(await isDeleted(b.id)).toBe(false);
  });

  it('a user whose dormant group holds more than the caller is refused too (the potential view)', async () => {
    // A group bound to no App confers nothing now, but would confer realm:admin once re-bound.
    const dormant = await api(host, 'POST', '/api/group', {
      cookie: admin.jar,
      body: { Name: `dormant-${Date.now()}`, BoundTo: [], RoleIds: [REALM_ADMIN_ROLE] },
    });
    expect(dormant.status, dormant.text).toBe(201);
    const sleeper = await deleted(dormant.body.Id);
    expectProblem(await api(host, 'POST', `/api/user/${sleeper.id}/restore`, { cookie: operator }), 403, 'Auth.Forbidden');
    expect(await isDeleted(sleeper.id)).toBe(true);
    // The administrator holds everything and restores them.
    const back = await api(host, 'POST', `/api/user/${sleeper.id}/restore`, { cookie: admin.jar });
    expect(back.status, back.text).toBe(200);
  });
});

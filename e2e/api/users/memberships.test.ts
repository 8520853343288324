import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, expectProblem, type SignedIn } from '../support/harness';
import { ADMINISTRATORS, grant, makeUser, signedIn } from './fixtures';

// Group membership of users, the live diagnostics, and the guard rails around administrators
// (spec 4.7 "Users", 5.7).
let host: string;
let slug: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, slug } = await createRealm());
  admin = await bootstrapAdmin(slug);
});

describe('memberships', () => {
  it('lists direct and inherited groups with the chain, and explains what takes effect', async () => {
    const u = await makeUser(host, admin.jar);
    const { groupId: parent } = await grant(host, admin.jar, ['user:read']);
    const child = await api(host, 'POST', '/api/group', { cookie: admin.jar, body: { Name: `dormant-${u.userName}`, BoundTo: [], ParentGroupIds: [parent] } });
    expect(child.status, child.text).toBe(201);
    const add = await api(host, 'POST', `/api/user/${u.id}/groups`, { cookie: admin.jar, body: { groupId: child.body.Id } });
    expect(add.status, add.text).toBe(201);
    expect((await api(host, 'POST', `/api/user/${u.id}/groups`, { cookie: admin.jar, body: { GroupId: child.body.Id } })).status).toBe(201);

    const groups = await api(host, 'GET', `/api/user/${u.id}/groups`, { cookie: admin.jar });
    expect(groups.body.map((g: { Id: string; Direct: boolean }) => [g.Id, g.Direct])).toEqual([
      [child.body.Id, true],
      [parent, false],
    ]);
    expect(groups.body[1].Path.map((p: { Id: string }) => p.Id)).toEqual([child.body.Id, parent]);

    const diag = await api(host, 'GET', `/api/user/${u.id}/effective-groups`, { cookie: admin.jar });
    expect(diag.status, diag.text).toBe(200);
    expect(diag.body.Live).toBe(true);
    expect(diag.body.Groups[0]).toMatchObject({ Dormant: true, EffectiveFor: [] });
    expect(diag.body.Groups[1]).toMatchObject({ Dormant: false, EffectiveFor: ['gatehouse'] });
    expect(diag.body.Permissions).toEqual([{ App: 'gatehouse', Permissions: ['user:read'] }]);
  });

  it('unknown group in the body is a 400 on the field; a missing membership a 404', async () => {
    const u = await makeUser(host, admin.jar);
    const bad = await api(host, 'POST', `/api/user/${u.id}/groups`, { cookie: admin.jar, body: { GroupId: 'nope' } });
    expectProblem(bad, 400, 'Validation.Failed');
    expect(bad.body.errors.GroupId).toBeDefined();
    expectProblem(await api(host, 'DELETE', `/api/user/${u.id}/groups/${ADMINISTRATORS}`, { cookie: admin.jar }), 404, 'Membership.NotFound');
  });
});

describe('guard rails', () => {
  it('the last active administrator cannot leave Administrators', async () => {
    expectProblem(await api(host, 'DELETE', `/api/user/${admin.userId}/groups/${ADMINISTRATORS}`, { cookie: admin.jar }), 409, 'User.LastAdministrator');
  });

  it('user:write alone cannot join Administrators or take over an administrator', async () => {
    const operator = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['user:read', 'user:write'], operator.id);
    const jar = await signedIn(host, operator);
    expectProblem(await api(host, 'POST', `/api/user/${operator.id}/groups`, { cookie: jar, body: { GroupId: ADMINISTRATORS } }), 403, 'Auth.Forbidden');
    expectProblem(await api(host, 'PUT', `/api/user/${admin.userId}/password`, { cookie: jar, body: { Password: 'taken over now' } }), 403, 'Auth.Forbidden');
    expectProblem(await api(host, 'PUT', `/api/user/${admin.userId}`, { cookie: jar, body: { Email: 'mine@example.test' } }), 403, 'Auth.Forbidden');
    // Ordinary users remain theirs to manage.
    const plain = await makeUser(host, admin.jar);
    expect((await api(host, 'PUT', `/api/user/${plain.id}/active`, { cookie: jar, body: { IsActive: false } })).status).toBe(200);
  });
});

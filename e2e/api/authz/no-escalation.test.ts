import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectProblem, realmWithAdmin, type CookieJar, type SignedIn } from '../support/harness';
import { grant, MAIN_APP_ID, makeUser, REALM_ADMIN_ROLE, signedIn, type MadeUser } from '../users/fixtures';

// The no-escalation rule on the writes that change who holds what (issue 8, findings 1 and 2):
// re-binding a group, and a role update racing a group update. The rule itself is the property of
// no-escalation.property.test.ts; these are the two attacks found by the outside review.
let host: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, admin } = await realmWithAdmin());
});

async function permissionsOf(userId: string): Promise<string[]> {
  const res = await api(host, 'GET', `/api/user/${userId}/effective-groups`, { cookie: admin.jar });
  expect(res.status, res.text).toBe(200);
  return res.body.Permissions.find((p: { App: string }) => p.App === 'gatehouse')?.Permissions ?? [];
}

async function group(name: string, body: Record<string, unknown>): Promise<string> {
  const res = await api(host, 'POST', '/api/group', { cookie: admin.jar, body: { Name: name, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.Id;
}

async function join(userId: string, groupId: string): Promise<void> {
  const res = await api(host, 'POST', `/api/user/${userId}/groups`, { cookie: admin.jar, body: { GroupId: groupId } });
  expect(res.status, res.text).toBe(201);
}

/** A user holding exactly these permissions (through a group of its own), signed in. */
async function operator(permissions: string[]): Promise<{ user: MadeUser; jar: CookieJar }> {
  const user = await makeUser(host, admin.jar);
  await grant(host, admin.jar, permissions, user.id);
  return { user, jar: await signedIn(host, user) };
}

describe('re-binding a group (BoundTo) follows the no-escalation rule both ways', () => {
  it('authorization-group:write cannot wake a dormant group that holds the realm-admin role', async () => {
    const { user, jar } = await operator(['authorization-group:read', 'authorization-group:write']);
    const dormant = await group(`dormant-admins-${user.userName}`, { BoundTo: [], RoleIds: [REALM_ADMIN_ROLE] });
    await join(user.id, dormant);
    expect(await permissionsOf(user.id)).not.toContain('realm:admin');

    const wake = await api(host, 'PUT', `/api/group/${dormant}`, {
      cookie: jar,
      body: { Name: `dormant-admins-${user.userName}`, RoleIds: [REALM_ADMIN_ROLE], BoundTo: ['*'] },
    });
    expectProblem(wake, 403, 'Auth.Forbidden');
    expect(wake.body.detail).toContain('realm:admin');
    expect(await permissionsOf(user.id)).not.toContain('realm:admin');
    const after = await api(host, 'GET', `/api/group/${dormant}`, { cookie: admin.jar });
    expect(after.body.BoundTo).toEqual([]);
  });

  it('nor make dormant a group that gives others what the operator does not hold', async () => {
    const { jar } = await operator(['authorization-group:read', 'authorization-group:write']);
    const someone = await makeUser(host, admin.jar);
    const { groupId, roleId } = await grant(host, admin.jar, ['session:read'], someone.id);
    const name = (await api(host, 'GET', `/api/group/${groupId}`, { cookie: admin.jar })).body.Name;

    const sleep = await api(host, 'PUT', `/api/group/${groupId}`, { cookie: jar, body: { Name: name, RoleIds: [roleId], BoundTo: [] } });
    expectProblem(sleep, 403, 'Auth.Forbidden');
    expect(await permissionsOf(someone.id)).toContain('session:read');
  });

  it('an operator may re-bind a group conferring only what it holds, and an administrator anything', async () => {
    const { jar } = await operator(['authorization-group:read', 'authorization-group:write', 'session:read']);
    const someone = await makeUser(host, admin.jar);
    const { groupId, roleId } = await grant(host, admin.jar, ['session:read'], someone.id);
    const name = (await api(host, 'GET', `/api/group/${groupId}`, { cookie: admin.jar })).body.Name;
    const sleep = await api(host, 'PUT', `/api/group/${groupId}`, { cookie: jar, body: { Name: name, RoleIds: [roleId], BoundTo: [] } });
    expect(sleep.status, sleep.text).toBe(200);
    expect(await permissionsOf(someone.id)).not.toContain('session:read');

    const dormant = await group(`dormant-admins-${someone.userName}`, { BoundTo: [], RoleIds: [REALM_ADMIN_ROLE] });
    await join(someone.id, dormant);
    const wake = await api(host, 'PUT', `/api/group/${dormant}`, {
      cookie: admin.jar,
      body: { Name: `dormant-admins-${someone.userName}`, RoleIds: [REALM_ADMIN_ROLE], BoundTo: ['*'] },
    });
    expect(wake.status, wake.text).toBe(200);
    expect(await permissionsOf(someone.id)).toContain('realm:admin');
  });
});

describe('a role update racing a group update', () => {
  it('adding realm:admin to a role that no group holds is harmless, and then no group may take the role', async () => {
    const { user, jar } = await operator(['authorization-group:write', 'permission-role:write', 'user:read']);
    const mine = (await api(host, 'GET', `/api/user/${user.id}/groups`, { cookie: admin.jar })).body[0];
    const role = await api(host, 'POST', '/api/role', {
      cookie: jar,
      body: { Name: `loose-${user.userName}`, AppId: MAIN_APP_ID, Permissions: ['user:read'] },
    });
    expect(role.status, role.text).toBe(201);
    const upgraded = await api(host, 'PUT', `/api/role/${role.body.Id}`, {
      cookie: jar,
      body: { Name: `loose-${user.userName}`, AppId: MAIN_APP_ID, Permissions: ['realm:admin'] },
    });
    expect(upgraded.status, upgraded.text).toBe(200);
    const current = (await api(host, 'GET', `/api/group/${mine.Id}`, { cookie: admin.jar })).body;
    const take = await api(host, 'PUT', `/api/group/${mine.Id}`, {
      cookie: jar,
      body: { Name: current.Name, RoleIds: [...current.RoleIds, role.body.Id], BoundTo: ['*'] },
    });
    expectProblem(take, 403, 'Auth.Forbidden');
    expect(await permissionsOf(user.id)).not.toContain('realm:admin');
  });

  it('sent together, PUT group (add role X) and PUT role X (add realm:admin) never both pass', async () => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const { user, jar } = await operator(['authorization-group:write', 'permission-role:write', 'user:read']);
      const mine = (await api(host, 'GET', `/api/user/${user.id}/groups`, { cookie: admin.jar })).body[0];
      const current = (await api(host, 'GET', `/api/group/${mine.Id}`, { cookie: admin.jar })).body;
      const x = await api(host, 'POST', '/api/role', { cookie: jar, body: { Name: `x-${user.userName}`, AppId: MAIN_APP_ID, Permissions: ['user:read'] } });
      expect(x.status, x.text).toBe(201);

      const [groupPut, rolePut] = await Promise.all([
        api(host, 'PUT', `/api/group/${mine.Id}`, { cookie: jar, body: { Name: current.Name, RoleIds: [...current.RoleIds, x.body.Id], BoundTo: ['*'] } }),
        api(host, 'PUT', `/api/role/${x.body.Id}`, {
          cookie: jar,
          body: { Name: `x-${user.userName}`, AppId: MAIN_APP_ID, Permissions: ['user:read', 'realm:admin'] },
        }),
      ]);
      expect(
        [groupPut.status, rolePut.status].every((s) => s === 200 || s === 403),
        `${groupPut.text} ${rolePut.text}`,
      ).toBe(true);
      expect(groupPut.status === 200 && rolePut.status === 200, 'both passed').toBe(false);
      expect(await permissionsOf(user.id)).not.toContain('realm:admin');
    }
  });
});

describe('acting on a principal’s credentials needs what it holds, dormant groups included', () => {
  it('user:write cannot take over a member of a dormant administrators group, nor mint a secret for such an account', async () => {
    const { user, jar } = await operator(['user:read', 'user:write', 'service-account:write']);
    const target = await makeUser(host, admin.jar);
    const dormant = await group(`sleeping-admins-${user.userName}`, { BoundTo: [], RoleIds: [REALM_ADMIN_ROLE] });
    await join(target.id, dormant);
    expectProblem(
      await api(host, 'PUT', `/api/user/${target.id}/password`, { cookie: jar, body: { Password: 'a long enough new passphrase' } }),
      403,
      'Auth.Forbidden',
    );
    expectProblem(
      await api(host, 'PUT', `/api/user/${target.id}`, { cookie: jar, body: { Email: `${user.userName}-mine@example.test` } }),
      403,
      'Auth.Forbidden',
    );
    expect((await api(host, 'GET', `/api/user/${target.id}`, { cookie: admin.jar })).body.Email).toBe(target.email);

    const account = await api(host, 'POST', '/api/service-account', { cookie: admin.jar, body: { Name: `sleeper-${user.userName}`, GroupIds: [dormant] } });
    expect(account.status, account.text).toBe(201);
    expectProblem(await api(host, 'POST', `/api/service-account/${account.body.Id}/credentials`, { cookie: jar, body: {} }), 403, 'Auth.Forbidden');
    expect((await api(host, 'GET', `/api/service-account/${account.body.Id}`, { cookie: admin.jar })).body.CredentialCount).toBe(0);
  });
});

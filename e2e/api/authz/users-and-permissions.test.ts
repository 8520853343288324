import { beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, expectProblem, signIn, strongPassword, realmWithAdmin, type SignedIn } from '../support/harness';
import type { CookieJar } from '../support/http';

// Users made through POST /api/user (spec 4.7, CONTRACT.md "Admin payloads") for what needs a user
// without administration rights: 403 for a signed-in user lacking a permission (spec 5.5, 5.7, 7),
// the identical 401 of an inactive user, and permissions granted through a role and a group.
type Created = { id: string; userName: string; password: string };

async function createUser(host: string, cookie: string | CookieJar, extra: Record<string, unknown> = {}): Promise<Created> {
  const userName = `user-${Math.random().toString(36).slice(2, 10)}`;
  const password = strongPassword();
  const res = await api(host, 'POST', '/api/user', { body: { UserName: userName, Email: `${userName}@example.test`, Password: password, ...extra }, cookie });
  expect(res.status, res.text).toBe(201);
  expect(res.body.Id).toMatch(/^[0-9a-f-]{36}$/i);
  expect(JSON.stringify(res.body)).not.toMatch(/passwordHash|"Password"/i);
  return { id: res.body.Id, userName, password };
}

describe('a user without permissions in a tenant realm', () => {
  let host: string;
  let admin: SignedIn;
  let plain: Created;
  let plainJar: CookieJar;

  beforeAll(async () => {
    ({ host, admin } = await realmWithAdmin());
    plain = await createUser(host, admin.jar);
    const { res, jar } = await signIn(host, plain.userName, plain.password);
    expect(res.status, res.text).toBe(200);
    plainJar = jar;
  });

  it('signs in and sees no administrative permission in me', async () => {
    const me = await api(host, 'GET', '/api/account/me', { cookie: plainJar });
    expect(me.status).toBe(200);
    expect(me.body.UserName).toBe(plain.userName);
    expect(me.body.Permissions).not.toContain('realm:admin');
    expect(me.body.Permissions).not.toContain('auth-log:read');
    expect(me.body.Permissions).not.toContain('user:read');
  });

  it.each([
    ['GET', '/api/admin/auth-log'],
    ['GET', '/api/user'],
    ['POST', '/api/user'],
  ])('%s %s answers 403 problem+json', async (method, path) => {
    const res = await api(host, method, path, {
      cookie: plainJar,
      body: method === 'POST' ? { UserName: 'x-blocked', Email: 'x-blocked@example.test' } : undefined,
    });
    expectProblem(res, 403);
  });

  it('realm routes on this (non-control-plane) host still answer a bare 404, not 403', async () => {
    expectProblem(await api(host, 'GET', '/api/admin/realms', { cookie: plainJar }), 404, null);
    expectProblem(await api(host, 'GET', '/api/admin/platform-audit', { cookie: plainJar }), 404, null);
  });

  it('a deactivated user gets the same 401 as a wrong password, and loses its sessions', async () => {
    const user = await createUser(host, admin.jar);
    const { jar } = await signIn(host, user.userName, user.password);
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(200);
    const off = await api(host, 'PUT', `/api/user/${user.id}/active`, { body: { IsActive: false }, cookie: admin.jar });
    expect(off.status, off.text).toBe(200);
    expect(off.body.IsActive).toBe(false);

    const inactive = await api(host, 'POST', '/api/account/login', { body: { UserName: user.userName, Password: user.password } });
    const wrong = await api(host, 'POST', '/api/account/login', { body: { UserName: plain.userName, Password: 'definitely-wrong-pw' } });
    const unknown = await api(host, 'POST', '/api/account/login', { body: { UserName: 'no-such-user-here', Password: user.password } });
    expectProblem(inactive, 401);
    expectProblem(wrong, 401);
    expectProblem(unknown, 401);
    expect(inactive.body).toEqual(wrong.body);
    expect(unknown.body).toEqual(wrong.body);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: jar }), 401);
  });

  it('a user created inactive cannot sign in', async () => {
    const user = await createUser(host, admin.jar, { IsActive: false });
    expectProblem((await signIn(host, user.userName, user.password)).res, 401);
  });
});

describe('permissions on the control plane', () => {
  let plain: Created;
  let plainJar: CookieJar;

  beforeAll(async () => {
    plain = await createUser(CP_HOST, adminCookie());
    const { res, jar } = await signIn(CP_HOST, plain.userName, plain.password);
    expect(res.status, res.text).toBe(200);
    plainJar = jar;
  });

  it.each([
    ['GET', '/api/admin/realms'],
    ['GET', '/api/admin/realms/control'],
    ['POST', '/api/admin/realms'],
    ['PATCH', '/api/admin/realms/control'],
    ['DELETE', '/api/admin/realms/control'],
    ['POST', '/api/admin/realms/control/admin-invites'],
    ['POST', '/api/admin/realms/control/transfer-control-plane'],
    ['GET', '/api/admin/platform-audit'],
    ['GET', '/api/admin/auth-log'],
  ])('%s %s answers 403 to a signed-in user without permission', async (method, path) => {
    const body =
      method === 'GET' || method === 'DELETE'
        ? undefined
        : { Slug: 'never-made', DisplayName: 'x', Domains: ['never-made.localhost'], UserName: 'x', Email: 'x@example.test' };
    const res = await api(CP_HOST, method, path, { cookie: plainJar, body });
    expectProblem(res, 403);
  });

  it('a role with realm:read (control-plane app) through a group bound to it allows reading, not writing', async () => {
    const apps = await api(CP_HOST, 'GET', '/api/app?pageSize=200', { cookie: adminCookie() });
    expect(apps.status, apps.text).toBe(200);
    const items: Array<{ Id: string; Slug: string }> = apps.body.items ?? apps.body;
    const cpApp = items.find((a) => a.Slug === 'control-plane');
    expect(cpApp, JSON.stringify(items)).toBeDefined();

    const role = await api(CP_HOST, 'POST', '/api/role', {
      body: { Name: `realm readers ${plain.userName}`, AppId: cpApp!.Id, Permissions: ['realm:read'] },
      cookie: adminCookie(),
    });
    expect(role.status, role.text).toBe(201);
    const group = await api(CP_HOST, 'POST', '/api/group', {
      body: { Name: `readers ${plain.userName}`, BoundTo: ['control-plane'], RoleIds: [role.body.Id] },
      cookie: adminCookie(),
    });
    expect(group.status, group.text).toBe(201);
    const member = await api(CP_HOST, 'POST', `/api/user/${plain.id}/groups`, { body: { GroupId: group.body.Id }, cookie: adminCookie() });
    expect(member.status, member.text).toBe(201);

    const list = await api(CP_HOST, 'GET', '/api/admin/realms', { cookie: plainJar });
    expect(list.status, list.text).toBe(200);
    expect((await api(CP_HOST, 'GET', '/api/admin/realms/control', { cookie: plainJar })).status).toBe(200);
    expectProblem(
      await api(CP_HOST, 'POST', '/api/admin/realms', {
        cookie: plainJar,
        body: { Slug: 'reader-made', DisplayName: 'x', Domains: ['reader-made.localhost'] },
      }),
      403,
    );
    expectProblem(await api(CP_HOST, 'GET', '/api/admin/platform-audit', { cookie: plainJar }), 403);
    const me = await api(CP_HOST, 'GET', '/api/account/me', { cookie: plainJar });
    expect(me.body.ControlPlanePermissions).toContain('realm:read');
    expect(me.body.ControlPlanePermissions).not.toContain('realm:write');
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMINISTRATORS, grant, makeUser, signedIn } from '../users/fixtures';
import { api, bootstrapAdmin, createRealm, eventually, expectProblem, type CookieJar, type SignedIn } from '../support/harness';
import { clientRow, engineTokenCount, makeAccount, makeCredential, storeEngineToken } from './fixtures';

// Service accounts (spec 4.7 "Service accounts", 4.9 merge-patch, 5.7 permissions through groups;
// CONTRACT.md: Name, Description?, GroupIds?): CRUD, validation, duplicates, memberships and the
// no-escalation rule, principal lookup and effective members, permissions.
describe('service accounts', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  let groupA: string;
  let groupB: string;

  const newGroup = async (body: Record<string, unknown> = {}): Promise<string> => {
    const res = await api(host, 'POST', '/api/group', { cookie: admin.jar, body: { Name: `g-${randomBytes(4).toString('hex')}`, ...body } });
    expect(res.status, res.text).toBe(201);
    return res.body.Id;
  };

  beforeAll(async () => {
    ({ host, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
    groupA = await newGroup();
    groupB = await newGroup();
  });

  it('create: 201 with Id, Name, Description, IsActive, GroupIds and CredentialCount; GET answers the same', async () => {
    const res = await api(host, 'POST', '/api/service-account', {
      cookie: admin.jar,
      body: { name: 'Billing Sync', description: 'Nightly export', groupIds: [groupA] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ Name: 'Billing Sync', Description: 'Nightly export', IsActive: true, GroupIds: [groupA], CredentialCount: 0 });
    expect(res.body.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof res.body.CreatedAt).toBe('string');
    const got = await api(host, 'GET', `/api/service-account/${res.body.Id}`, { cookie: admin.jar });
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('a duplicate name, in any case, is 409 ServiceAccount.NameTaken', async () => {
    const a = await makeAccount(host, admin.jar);
    expectProblem(
      await api(host, 'POST', '/api/service-account', { cookie: admin.jar, body: { Name: a.name.toUpperCase() } }),
      409,
      'ServiceAccount.NameTaken',
    );
    const b = await makeAccount(host, admin.jar);
    expectProblem(await api(host, 'PUT', `/api/service-account/${b.id}`, { cookie: admin.jar, body: { Name: a.name } }), 409, 'ServiceAccount.NameTaken');
  });

  it.each([
    {},
    { Name: '' },
    { Name: '   ' },
    { Name: 'x'.repeat(201) },
    { Name: 'a\u0000b' },
    { Name: 'ok', GroupIds: 'nope' },
    { Name: 'ok', Description: 5 },
  ])('refuses %j with 400 Validation.Failed', async (body) => {
    expectProblem(await api(host, 'POST', '/api/service-account', { cookie: admin.jar, body }), 400, 'Validation.Failed');
  });

  it('GroupIds must name existing groups: 400 naming each unknown id', async () => {
    const ghost = randomUUID();
    const res = await api(host, 'POST', '/api/service-account', {
      cookie: admin.jar,
      body: { Name: `svc-${randomBytes(3).toString('hex')}`, GroupIds: [groupA, ghost] },
    });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors.GroupIds.join(' ')).toContain(ghost);
  });

  it('an unknown id is 404 ServiceAccount.NotFound on read, change and delete', async () => {
    const id = randomUUID();
    expectProblem(await api(host, 'GET', `/api/service-account/${id}`, { cookie: admin.jar }), 404, 'ServiceAccount.NotFound');
    expectProblem(await api(host, 'PUT', `/api/service-account/${id}`, { cookie: admin.jar, body: {} }), 404, 'ServiceAccount.NotFound');
    expectProblem(await api(host, 'DELETE', `/api/service-account/${id}`, { cookie: admin.jar }), 404, 'ServiceAccount.NotFound');
  });

  it('update is merge-patch: omitted unchanged, null/"" clear Description, null Name unchanged, GroupIds replaces', async () => {
    const a = await makeAccount(host, admin.jar, { Description: 'first', GroupIds: [groupA] });
    const path = `/api/service-account/${a.id}`;
    let res = await api(host, 'PUT', path, { cookie: admin.jar, body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ Name: a.name, Description: 'first', GroupIds: [groupA], IsActive: true });

    res = await api(host, 'PUT', path, { cookie: admin.jar, body: { Name: null, Description: '', GroupIds: [groupB] } });
    expect(res.body).toMatchObject({ Name: a.name, GroupIds: [groupB] });
    expect(res.body.Description).toBeUndefined();
    expect(typeof res.body.UpdatedAt).toBe('string');

    res = await api(host, 'PUT', path, { cookie: admin.jar, body: { Name: `${a.name}-renamed`, Description: 'back', GroupIds: [groupA, groupB, groupA] } });
    expect(res.body).toMatchObject({ Name: `${a.name}-renamed`, Description: 'back', GroupIds: [groupA, groupB].sort() });

    res = await api(host, 'PUT', path, { cookie: admin.jar, body: { Description: null, GroupIds: [] } });
    expect(res.body.GroupIds).toEqual([]);
    expect(res.body.Description).toBeUndefined();

    res = await api(host, 'PUT', path, { cookie: admin.jar, body: { GroupIds: [randomUUID()] } });
    expectProblem(res, 400, 'Validation.Failed');
  });

  it('the list is paged and searches the name case-insensitively', async () => {
    const tag = randomBytes(3).toString('hex');
    for (const n of ['alpha', 'beta', 'gamma']) await api(host, 'POST', '/api/service-account', { cookie: admin.jar, body: { Name: `List-${tag}-${n}` } });
    const res = await api(host, 'GET', `/api/service-account?search=LIST-${tag}&pageSize=2`, { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ totalCount: 3, page: 1, pageSize: 2 });
    expect(res.body.items.map((i: { Name: string }) => i.Name)).toEqual([`List-${tag}-alpha`, `List-${tag}-beta`]);
    const page2 = await api(host, 'GET', `/api/service-account?search=list-${tag}&pageSize=2&page=2`, { cookie: admin.jar });
    expect(page2.body.items.map((i: { Name: string }) => i.Name)).toEqual([`List-${tag}-gamma`]);
    const desc = await api(host, 'GET', `/api/service-account?search=list-${tag}&sortBy=name&sortDescending=true`, { cookie: admin.jar });
    expect(desc.body.items[0].Name).toBe(`List-${tag}-gamma`);
  });

  it('principal lookup lists active service accounts beside users and groups', async () => {
    const live = await makeAccount(host, admin.jar, { Description: 'live one' });
    const off = await makeAccount(host, admin.jar, { IsActive: false });
    const res = await api(host, 'GET', '/api/principal/lookup', { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toContainEqual({ Id: live.id, Kind: 'ServiceAccount', DisplayName: live.name, Description: 'live one' });
    expect(res.body.map((p: { Id: string }) => p.Id)).not.toContain(off.id);
    const kinds = new Set(res.body.map((p: { Kind: string }) => p.Kind));
    expect(kinds).toEqual(new Set(['User', 'Group', 'ServiceAccount']));
  });

  it('effective members of a group include service accounts, directly and through nesting', async () => {
    const parent = await newGroup();
    const child = await newGroup({ ParentGroupIds: [parent] });
    const direct = await makeAccount(host, admin.jar, { GroupIds: [parent] });
    const nested = await makeAccount(host, admin.jar, { GroupIds: [child] });
    const res = await api(host, 'GET', `/api/group/${parent}/effective-members`, { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toContainEqual({
      Kind: 'ServiceAccount',
      Id: direct.id,
      DisplayName: direct.name,
      IsActive: true,
      Direct: true,
      Via: [expect.objectContaining({ Id: parent })],
    });
    const viaChild = res.body.items.find((m: { Id: string }) => m.Id === nested.id);
    expect(viaChild).toMatchObject({ Kind: 'ServiceAccount', Direct: false });
    expect(viaChild.Via.map((v: { Id: string }) => v.Id)).toEqual([child, parent]);
    const search = await api(host, 'GET', `/api/group/${parent}/effective-members?search=${nested.name.toUpperCase()}`, { cookie: admin.jar });
    expect(search.body.items.map((m: { Id: string }) => m.Id)).toEqual([nested.id]);
  });

  it('deleting a group ends service-account memberships in it', async () => {
    const g = await newGroup();
    const a = await makeAccount(host, admin.jar, { GroupIds: [g, groupA] });
    expect((await api(host, 'DELETE', `/api/group/${g}`, { cookie: admin.jar })).status).toBe(204);
    expect((await api(host, 'GET', `/api/service-account/${a.id}`, { cookie: admin.jar })).body.GroupIds).toEqual([groupA]);
  });

  it('deactivating disables its OAuth clients and revokes their stored tokens; reactivating enables them again', async () => {
    const a = await makeAccount(host, admin.jar);
    const cred = await makeCredential(host, admin.jar, a.id);
    await storeEngineToken(slug, cred.clientId);
    const off = await api(host, 'PUT', `/api/service-account/${a.id}`, { cookie: admin.jar, body: { IsActive: false } });
    expect(off.body.IsActive).toBe(false);
    expect(Boolean((await clientRow(slug, cred.clientId))!.isActive)).toBe(false);
    expect(await engineTokenCount(slug, cred.clientId)).toBe(0);
    // A null flag leaves it alone (spec 4.9).
    expect((await api(host, 'PUT', `/api/service-account/${a.id}`, { cookie: admin.jar, body: { IsActive: null } })).body.IsActive).toBe(false);
    const on = await api(host, 'PUT', `/api/service-account/${a.id}`, { cookie: admin.jar, body: { IsActive: true } });
    expect(on.body.IsActive).toBe(true);
    expect(Boolean((await clientRow(slug, cred.clientId))!.isActive)).toBe(true);
  });

  it('delete: 204, then 404; changes land in the security log as Authorization events', async () => {
    const a = await makeAccount(host, admin.jar);
    expect((await api(host, 'DELETE', `/api/service-account/${a.id}`, { cookie: admin.jar })).status).toBe(204);
    expectProblem(await api(host, 'GET', `/api/service-account/${a.id}`, { cookie: admin.jar }), 404, 'ServiceAccount.NotFound');
    await eventually(async () => {
      const log = await api(host, 'GET', '/api/admin/auth-log?eventType=service-account.deleted', { cookie: admin.jar });
      const entry = log.body.find((e: { TargetId?: string; Detail?: { serviceAccountId?: string } }) => e.Detail?.serviceAccountId === a.id);
      expect(entry).toMatchObject({ Category: 'Authorization', EventType: 'service-account.deleted' });
      expect(JSON.stringify(entry)).not.toContain(a.name);
    });
  });

  describe('permissions', () => {
    let plain: CookieJar;
    let reader: CookieJar;
    let writer: CookieJar;
    let account: string;

    beforeAll(async () => {
      plain = await signedIn(host, await makeUser(host, admin.jar));
      const r = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['service-account:read'], r.id);
      reader = await signedIn(host, r);
      const w = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['service-account:read', 'service-account:write'], w.id);
      writer = await signedIn(host, w);
      account = (await makeAccount(host, admin.jar)).id;
    });

    it('anonymous callers get 401', async () => {
      expectProblem(await api(host, 'GET', '/api/service-account'), 401);
      expectProblem(await api(host, 'GET', `/api/service-account/${account}`), 401);
      expectProblem(await api(host, 'POST', '/api/service-account', { body: { Name: 'x' } }), 401);
      expectProblem(await api(host, 'PUT', `/api/service-account/${account}`, { body: {} }), 401);
      expectProblem(await api(host, 'DELETE', `/api/service-account/${account}`), 401);
    });

    it('a user without service-account permissions gets 403 everywhere', async () => {
      expectProblem(await api(host, 'GET', '/api/service-account', { cookie: plain }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'GET', `/api/service-account/${account}`, { cookie: plain }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'POST', '/api/service-account', { cookie: plain, body: { Name: 'x' } }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'PUT', `/api/service-account/${account}`, { cookie: plain, body: {} }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'DELETE', `/api/service-account/${account}`, { cookie: plain }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'GET', '/api/principal/lookup', { cookie: plain }), 403, 'Auth.Forbidden');
    });

    it('service-account:read reads but cannot write', async () => {
      expect((await api(host, 'GET', '/api/service-account', { cookie: reader })).status).toBe(200);
      expect((await api(host, 'GET', `/api/service-account/${account}`, { cookie: reader })).status).toBe(200);
      expectProblem(await api(host, 'POST', '/api/service-account', { cookie: reader, body: { Name: 'x' } }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'PUT', `/api/service-account/${account}`, { cookie: reader, body: {} }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'DELETE', `/api/service-account/${account}`, { cookie: reader }), 403, 'Auth.Forbidden');
    });

    it('service-account:write creates, changes and deletes accounts that confer nothing it lacks', async () => {
      const { groupId } = await grant(host, admin.jar, ['service-account:read']);
      const created = await api(host, 'POST', '/api/service-account', {
        cookie: writer,
        body: { Name: `w-${randomBytes(3).toString('hex')}`, GroupIds: [groupId] },
      });
      expect(created.status, created.text).toBe(201);
      const changed = await api(host, 'PUT', `/api/service-account/${created.body.Id}`, { cookie: writer, body: { Description: 'by writer' } });
      expect(changed.status, changed.text).toBe(200);
      expect((await api(host, 'DELETE', `/api/service-account/${created.body.Id}`, { cookie: writer })).status).toBe(204);
    });

    it('no escalation: a writer cannot put an account in a group conferring what it lacks, nor manage one that holds it', async () => {
      const name = `esc-${randomBytes(3).toString('hex')}`;
      const res = await api(host, 'POST', '/api/service-account', { cookie: writer, body: { Name: name, GroupIds: [ADMINISTRATORS] } });
      expectProblem(res, 403, 'Auth.Forbidden');
      expect(res.body.detail).toContain('realm:admin');
      const { groupId: userWriters } = await grant(host, admin.jar, ['user:write']);
      expectProblem(await api(host, 'PUT', `/api/service-account/${account}`, { cookie: writer, body: { GroupIds: [userWriters] } }), 403, 'Auth.Forbidden');
      expect((await api(host, 'GET', `/api/service-account/${account}`, { cookie: admin.jar })).body.GroupIds).toEqual([]);

      const privileged = await makeAccount(host, admin.jar, { GroupIds: [ADMINISTRATORS] });
      expectProblem(await api(host, 'PUT', `/api/service-account/${privileged.id}`, { cookie: writer, body: { Description: 'x' } }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'PUT', `/api/service-account/${privileged.id}`, { cookie: writer, body: { GroupIds: [] } }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'DELETE', `/api/service-account/${privileged.id}`, { cookie: writer }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'POST', `/api/service-account/${privileged.id}/credentials`, { cookie: writer, body: {} }), 403, 'Auth.Forbidden');
      // The administrator holds everything, so may.
      expect((await api(host, 'POST', `/api/service-account/${privileged.id}/credentials`, { cookie: admin.jar, body: {} })).status).toBe(201);
    });
  });
});

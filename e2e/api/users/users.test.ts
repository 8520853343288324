import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, expectProblem, signIn, type SignedIn } from '../support/harness';
import { makeUser, signedIn } from './fixtures';

// User administration (spec 3.5, 4.7 "Users", 4.9; CONTRACT.md "Admin payloads", "Wire rules").
let host: string;
let slug: string;
let admin: SignedIn;

beforeAll(async () => {
  ({ host, slug } = await createRealm());
  admin = await bootstrapAdmin(slug);
});

describe('create and read', () => {
  it('POST answers 201 with the user, never a hash or stamp', async () => {
    const res = await api(host, 'POST', '/api/user', {
      cookie: admin.jar,
      body: { userName: 'ada', email: 'Ada@Example.test', firstname: 'Ada', lastname: 'Lovelace', password: 'a long password' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      UserName: 'ada',
      Email: 'Ada@Example.test',
      Firstname: 'Ada',
      DisplayName: 'Ada Lovelace',
      IsActive: true,
      IsDeleted: false,
      HasPassword: true,
    });
    expect(res.body.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.text).not.toMatch(/"(PasswordHash|SecurityStamp|Password)"|\$argon2/i);
    expect('DeletedAt' in res.body).toBe(false);
  });

  it('names and addresses are unique across both columns, without regard to case', async () => {
    expectProblem(await api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: 'ADA', Email: 'x1@example.test' } }), 409, 'User.UserNameTaken');
    expectProblem(await api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: 'x2', Email: 'ada@example.TEST' } }), 409, 'User.EmailTaken');
    // Login accepts either, so a user name may not be another user's e-mail address.
    expectProblem(
      await api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: 'ada@example.test', Email: 'x3@example.test' } }),
      409,
      'User.UserNameTaken',
    );
  });

  it('refuses a weak password and invalid fields with a field map', async () => {
    const weak = await api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: 'weak', Email: 'weak@example.test', Password: 'short' } });
    expectProblem(weak, 400, 'User.PasswordTooWeak');
    expect(weak.body.errors.Password).toBeDefined();
    const bad = await api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: 'has space', Email: 'nope' } });
    expectProblem(bad, 400, 'Validation.Failed');
    expect(Object.keys(bad.body.errors).sort()).toEqual(['Email', 'UserName']);
  });

  it('lists with paging, case-insensitive search and sorting', async () => {
    const list = await api(host, 'GET', '/api/user?search=LOVE&pageSize=500', { cookie: admin.jar });
    expect(list.status, list.text).toBe(200);
    expect(list.body).toMatchObject({ totalCount: 1, page: 1, pageSize: 200 });
    expect(list.body.items[0].UserName).toBe('ada');
    const sorted = await api(host, 'GET', '/api/user?sortBy=userName&sortDescending=true', { cookie: admin.jar });
    const names: string[] = sorted.body.items.map((u: { UserName: string }) => u.UserName.toLowerCase());
    expect(names).toEqual([...names].sort().reverse());
    // Users without a last name sort after the others on both engines.
    const byLast = await api(host, 'GET', '/api/user?sortBy=lastname', { cookie: admin.jar });
    expect(byLast.body.items[0].UserName).toBe('ada');
    expect(byLast.body.items.at(-1).Lastname).toBeUndefined();
  });

  it('unknown ids answer 404', async () => {
    expectProblem(await api(host, 'GET', '/api/user/00000000-0000-4000-8000-00000000ffff', { cookie: admin.jar }), 404, 'User.NotFound');
  });

  it('lookup is open to any signed-in user, lists active users only, and needs a session', async () => {
    const plain = await makeUser(host, admin.jar);
    const off = await makeUser(host, admin.jar, { IsActive: false });
    const jar = await signedIn(host, plain);
    const res = await api(host, 'GET', '/api/user/lookup', { cookie: jar });
    expect(res.status, res.text).toBe(200);
    const ids = res.body.map((u: { Id: string }) => u.Id);
    expect(ids).toContain(plain.id);
    expect(ids).not.toContain(off.id);
    expect(Object.keys(res.body[0]).sort()).toEqual(['DisplayName', 'Id', 'UserName']);
    expectProblem(await api(host, 'GET', '/api/user', { cookie: jar }), 403, 'Auth.Forbidden');
    expectProblem(await api(host, 'GET', '/api/user/lookup'), 401);
  });
});

describe('merge-patch update (spec 4.9)', () => {
  it('omitted unchanged, null or "" clears names, null keys and flags ignored, new e-mail unconfirmed', async () => {
    const u = await makeUser(host, admin.jar, { Firstname: 'F', Lastname: 'L', Acronym: 'FL', EmailConfirmed: true });
    const res = await api(host, 'PUT', `/api/user/${u.id}`, {
      cookie: admin.jar,
      body: { Firstname: null, Acronym: '', UserName: null, IsActive: null, Email: `new-${u.email}` },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ UserName: u.userName, Lastname: 'L', IsActive: true, EmailConfirmed: false, Email: `new-${u.email}` });
    expect(res.body.Firstname).toBeUndefined();
    expect(res.body.Acronym).toBeUndefined();
  });
});

describe('password, activity, delete and restore', () => {
  it('setting a password ends the sessions; the new one signs in', async () => {
    const u = await makeUser(host, admin.jar);
    const jar = await signedIn(host, u);
    const set = await api(host, 'PUT', `/api/user/${u.id}/password`, { cookie: admin.jar, body: { Password: 'brand new password' } });
    expect(set.status, set.text).toBe(204);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: jar }), 401);
    expect((await signIn(host, u.userName, 'brand new password')).res.status).toBe(200);
  });

  it('deactivation ends sessions and blocks sign-in; nobody deactivates or deletes themselves', async () => {
    const u = await makeUser(host, admin.jar);
    const jar = await signedIn(host, u);
    const off = await api(host, 'PUT', `/api/user/${u.id}/active`, { cookie: admin.jar, body: { IsActive: false } });
    expect(off.status, off.text).toBe(200);
    expect(off.body.IsActive).toBe(false);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: jar }), 401);
    expectProblem((await signIn(host, u.userName, u.password)).res, 401);
    expectProblem(
      await api(host, 'PUT', `/api/user/${admin.userId}/active`, { cookie: admin.jar, body: { IsActive: false } }),
      400,
      'User.CannotDeactivateSelf',
    );
    expectProblem(await api(host, 'DELETE', `/api/user/${admin.userId}`, { cookie: admin.jar }), 400, 'User.CannotDeactivateSelf');
  });

  it('soft delete hides, blocks sign-in and ends sessions; restore brings the user back', async () => {
    const u = await makeUser(host, admin.jar);
    const jar = await signedIn(host, u);
    expect((await api(host, 'DELETE', `/api/user/${u.id}`, { cookie: admin.jar })).status).toBe(204);
    expectProblem(await api(host, 'GET', '/api/account/me', { cookie: jar }), 401);
    expectProblem((await signIn(host, u.userName, u.password)).res, 401);
    const visible = await api(host, 'GET', `/api/user?search=${u.userName}`, { cookie: admin.jar });
    expect(visible.body.totalCount).toBe(0);
    const bin = await api(host, 'GET', `/api/user?deleted=true&search=${u.userName}`, { cookie: admin.jar });
    expect(bin.body.items[0]).toMatchObject({ Id: u.id, IsDeleted: true });
    expect(bin.body.items[0].DeletedAt).toBeTypeOf('string');
    expectProblem(await api(host, 'PUT', `/api/user/${u.id}`, { cookie: admin.jar, body: { Firstname: 'x' } }), 409, 'User.Deleted');
    const back = await api(host, 'POST', `/api/user/${u.id}/restore`, { cookie: admin.jar });
    expect(back.status, back.text).toBe(200);
    expect(back.body.IsDeleted).toBe(false);
    expect((await signIn(host, u.userName, u.password)).res.status).toBe(200);
  });

  it('bulk delete and restore say which ids were handled and which were not found', async () => {
    const a = await makeUser(host, admin.jar);
    const b = await makeUser(host, admin.jar);
    const missing = '00000000-0000-4000-8000-00000000fffe';
    const del = await api(host, 'DELETE', '/api/user', { cookie: admin.jar, body: { Ids: [a.id, b.id, missing] } });
    expect(del.status, del.text).toBe(200);
    expect(del.body).toEqual({ Deleted: [a.id, b.id], NotFound: [missing] });
    expectProblem(await api(host, 'DELETE', '/api/user', { cookie: admin.jar, body: { Ids: [a.id, admin.userId] } }), 400, 'User.CannotDeactivateSelf');
    const res = await api(host, 'POST', '/api/user/restore', { cookie: admin.jar, body: { ids: [a.id, missing] } });
    expect(res.body).toEqual({ Restored: [a.id], NotFound: [missing] });
  });
});

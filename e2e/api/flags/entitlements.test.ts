import { beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, expectProblem, realmWithAdmin, strongPassword, type CookieJar, type SignedIn } from '../support/harness';

// Realm entitlements (spec 4.10, CONTRACT.md "Real-time hub and flags"): set by the control plane
// with PUT /api/admin/realms/{slug}/entitlements, read at /entitlements/RealmEntitlements/*, and
// enforced where users and OAuth clients are created (409 Entitlement.Exceeded, nothing created).
describe('realm entitlements', () => {
  let slug: string;
  let host: string;
  let admin: SignedIn;

  const putEntitlements = (body: Record<string, unknown>, options: { host?: string; cookie?: string | CookieJar } = {}) =>
    api(options.host ?? CP_HOST, 'PUT', `/api/admin/realms/${slug}/entitlements`, { cookie: options.cookie ?? adminCookie(), body });
  const userCount = async () => (await api(host, 'GET', '/api/user?pageSize=200', { cookie: admin.jar })).body.totalCount as number;
  const clientBody = (name: string) => ({
    DisplayName: name,
    ClientType: 'Public',
    ConsentType: 'Explicit',
    RedirectUris: ['https://app.example.test/cb'],
    GrantTypes: ['authorization_code'],
    Scopes: ['openid'],
  });
  const newUser = (tag: string) =>
    api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: `u-${tag}`, Email: `u-${tag}@example.test`, Password: strongPassword() } });

  beforeAll(async () => {
    const realm = await realmWithAdmin();
    ({ slug, host, admin } = realm);
  });

  it('is unlimited by default and answers { value: null }', async () => {
    const res = await api(host, 'GET', '/entitlements/RealmEntitlements/MaxUsers', { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ value: null });
    expectProblem(await api(host, 'GET', '/entitlements/RealmEntitlements/MaxUsers'), 401);
    expectProblem(await api(host, 'GET', '/entitlements/RealmEntitlements/Nope', { cookie: admin.jar }), 404, null);
  });

  it('is set from the control plane only, with realm:write; the PUT validates its body', async () => {
    expectProblem(await putEntitlements({ MaxUsers: 5 }, { host, cookie: admin.jar }), 404, null);
    expectProblem(await putEntitlements({ MaxUsers: -1 }), 400, 'Validation.Failed');
    expectProblem(await putEntitlements({ MaxUsers: 'many' }), 400, 'Validation.Failed');
    expectProblem(await api(CP_HOST, 'PUT', '/api/admin/realms/no-such-realm-here/entitlements', { cookie: adminCookie(), body: { MaxUsers: 1 } }), 404);
    const put = await putEntitlements({ MaxUsers: 7, MaxOAuthClients: 3 });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ MaxUsers: 7, MaxOAuthClients: 3 });
    expect((await api(host, 'GET', '/entitlements/RealmEntitlements/MaxUsers', { cookie: admin.jar })).body).toEqual({ value: 7 });
    expect((await api(host, 'GET', '/entitlements/RealmEntitlements/MaxOAuthClients', { cookie: admin.jar })).body).toEqual({ value: 3 });
    // A full replace: an absent limit is unlimited again. The realm PATCH keeps its own five fields.
    expect((await putEntitlements({ MaxOAuthClients: 3 })).body).toEqual({ MaxOAuthClients: 3 });
    expect((await api(host, 'GET', '/entitlements/RealmEntitlements/MaxUsers', { cookie: admin.jar })).body).toEqual({ value: null });
    const realm = await api(CP_HOST, 'GET', `/api/admin/realms/${slug}`, { cookie: adminCookie() });
    expect(realm.body.MaxUsers).toBeUndefined();
    expect(realm.body.Entitlements).toBeUndefined();
  });

  it('MaxUsers: creating a user at the limit is 409 and creates nothing', async () => {
    const live = await userCount();
    expect((await putEntitlements({ MaxUsers: live + 1 })).status).toBe(200);
    const first = await newUser(`ok-${Date.now()}`);
    expect(first.status, first.text).toBe(201);
    const refused = await newUser(`no-${Date.now()}`);
    expectProblem(refused, 409, 'Entitlement.Exceeded');
    expect(await userCount()).toBe(live + 1);
    // Deleting a user frees its place.
    expect((await api(host, 'DELETE', `/api/user/${first.body.Id}`, { cookie: admin.jar })).status).toBe(204);
    expect((await newUser(`again-${Date.now()}`)).status).toBe(201);
    // Restoring the deleted user would pass the limit again: refused, still deleted.
    expectProblem(await api(host, 'POST', `/api/user/${first.body.Id}/restore`, { cookie: admin.jar }), 409, 'Entitlement.Exceeded');
    expect(await userCount()).toBe(live + 1);
    await putEntitlements({});
  });

  it('MaxUsers: of several creates racing for the last free place, exactly one succeeds', async () => {
    const live = await userCount();
    expect((await putEntitlements({ MaxUsers: live + 1 })).status).toBe(200);
    const answers = await Promise.all([0, 1, 2, 3, 4].map((i) => newUser(`race-${i}-${Date.now()}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await userCount()).toBe(live + 1);
    await putEntitlements({});
  });

  it('MaxOAuthClients: the admin API and dynamic registration refuse the client beyond the limit', async () => {
    const list = await api(host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: admin.jar });
    const existing = list.body.totalCount as number;
    expect((await putEntitlements({ MaxOAuthClients: existing + 1 })).status).toBe(200);
    const first = await api(host, 'POST', '/api/admin/oauth/clients', { cookie: admin.jar, body: clientBody('First') });
    expect(first.status, first.text).toBe(201);
    const second = await api(host, 'POST', '/api/admin/oauth/clients', { cookie: admin.jar, body: clientBody('Second') });
    expectProblem(second, 409, 'Entitlement.Exceeded');
    expect((await api(host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: admin.jar })).body.totalCount).toBe(existing + 1);

    const dcr = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body: { Dcr: { Enabled: true } } });
    expect(dcr.status, dcr.text).toBe(200);
    const registered = await api(host, 'POST', '/connect/register', { body: { redirect_uris: ['https://app.example.test/cb'] } });
    expectProblem(registered, 409, 'Entitlement.Exceeded');
    expect((await api(host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: admin.jar })).body.totalCount).toBe(existing + 1);

    // Raised: dynamic registration works again.
    expect((await putEntitlements({ MaxOAuthClients: existing + 2 })).status).toBe(200);
    const again = await api(host, 'POST', '/connect/register', { body: { redirect_uris: ['https://app.example.test/cb'] } });
    expect(again.status, again.text).toBe(201);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminCookie,
  api,
  CP_HOST,
  createRealm,
  expectProblem,
  realmDomain,
  realmWithAdmin,
  signIn,
  strongPassword,
  uniqueSlug,
  type SignedIn,
} from '../../support/harness';
import { buildStructure, EMPTY, expectStructure } from '../fixtures';

// The control plane's manifest routes (spec 4.8): export, apply and import across realms by slug,
// the last-administrator rule of prune, and the hidden surface on every other host.
const cp = (method: string, path: string, body?: unknown) => api(CP_HOST, method, path, { cookie: adminCookie(), body });
const exportOf = async (slug: string) => {
  const res = await cp('GET', `/api/admin/realms/${slug}/export`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const ADMINISTRATORS = '00000000-0000-4000-8000-000000000020';

describe('control-plane manifests', () => {
  let a: { slug: string; host: string; admin: SignedIn };
  let exportA: any;

  beforeAll(async () => {
    a = await realmWithAdmin();
    await buildStructure(a.admin);
    exportA = await exportOf(a.slug);
  });

  it('exports a realm by slug, the same as its own realm-config export', async () => {
    expectStructure(exportA);
    const own = await api(a.host, 'GET', '/api/admin/realm-config/export', { cookie: a.admin.jar });
    expect(own.body).toEqual(exportA);
    expectProblem(await cp('GET', `/api/admin/realms/${uniqueSlug('none')}/export`), 404);
  });

  it('answers the manifest JSON Schema with its example', async () => {
    const res = await cp('GET', '/api/admin/realms/manifest-schema');
    expect(res.status).toBe(200);
    expect(res.body.Schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(res.body.Example.Version).toBe(1);
  });

  it("round trip: A's export applied to B makes B's export equal A's, and a second apply changes nothing", async () => {
    const b = await createRealm();
    const first = await cp('POST', `/api/admin/realms/${b.slug}/apply`, exportA);
    expect(first.status, first.text).toBe(200);
    expect(first.body.Created).toEqual(
      expect.arrayContaining(['app:crm', 'role:crm/Editor', 'group:Sales', 'oauth-client:crm-web', 'service-account:Reporting']),
    );
    expect(first.body.ClientSecrets.map((s: any) => s.ClientId)).toEqual(['crm-web']);
    expect(await exportOf(b.slug)).toEqual(exportA);
    const second = await cp('POST', `/api/admin/realms/${b.slug}/apply?prune=true`, exportA);
    expect(second.body).toMatchObject(EMPTY);
    // The realm record took the manifest's DisplayName.
    expect((await cp('GET', `/api/admin/realms/${b.slug}`)).body.DisplayName).toBe(exportA.Realm.DisplayName);
  });

  it('import creates a realm from a manifest', async () => {
    const slug = uniqueSlug('imp');
    const res = await cp('POST', '/api/admin/realms/import', {
      Slug: slug,
      Domains: [realmDomain(slug)],
      InitialAdmin: { UserName: 'first', Email: 'first@example.test' },
      Manifest: exportA,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.Realm.Slug).toBe(slug);
    expect(res.body.Realm.DisplayName).toBe(exportA.Realm.DisplayName);
    expect(res.body.InitialAdminInvite.MagicLinkUrl).toContain('token=');
    expect(res.body.Created).toContain('group:Staff');
    expect(res.body.ClientSecrets).toHaveLength(1);
    expect(await exportOf(slug)).toEqual(exportA);
  });

  it('import refuses an invalid manifest before creating anything, and removes a realm whose apply fails', async () => {
    const slug = uniqueSlug('imp');
    const bad = structuredClone(exportA);
    bad.Groups[0].ParentGroups = ['Nobody'];
    let res = await cp('POST', '/api/admin/realms/import', { Slug: slug, Domains: [realmDomain(slug)], Manifest: bad });
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors)).toEqual(['/Manifest/Groups/0/ParentGroups/0']);
    expectProblem(await cp('GET', `/api/admin/realms/${slug}`), 404);

    // Valid as a manifest, but the control-plane App exists only in the control-plane realm.
    const late = structuredClone(exportA);
    late.Roles.push({ App: 'control-plane', Name: 'Reader', Permissions: ['realm:read'] });
    res = await cp('POST', '/api/admin/realms/import', { Slug: slug, Domains: [realmDomain(slug)], Manifest: late });
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors)).toEqual([`/Manifest/Roles/${late.Roles.length - 1}/App`]);
    expectProblem(await cp('GET', `/api/admin/realms/${slug}`), 404);
    // The slug and domain are free again.
    const again = await cp('POST', '/api/admin/realms/import', { Slug: slug, Domains: [realmDomain(slug)], Manifest: exportA });
    expect(again.status, again.text).toBe(201);
  });

  it('prune refuses to remove the last administrator, and changes nothing', async () => {
    const r = await realmWithAdmin();
    const applied = await api(r.host, 'POST', '/api/admin/realm-config/apply', {
      cookie: r.admin.jar,
      body: { Version: 1, Realm: { DisplayName: 'Ops realm' }, Groups: [{ Name: 'Ops', ParentGroups: ['Administrators'] }] },
    });
    expect(applied.status, applied.text).toBe(200);
    const groups = await api(r.host, 'GET', '/api/group', { cookie: r.admin.jar });
    const ops = groups.body.items.find((g: any) => g.Name === 'Ops');
    // Another person administers the realm only through Ops; the first administrator steps down.
    const password = strongPassword();
    const user = await api(r.host, 'POST', '/api/user', { cookie: r.admin.jar, body: { UserName: 'ops', Email: 'ops@example.test', Password: password } });
    expect(user.status, user.text).toBe(201);
    expect((await api(r.host, 'POST', `/api/user/${user.body.Id}/groups`, { cookie: r.admin.jar, body: { GroupId: ops.Id } })).status).toBeLessThan(300);
    const me = await api(r.host, 'GET', '/api/account/me', { cookie: r.admin.jar });
    const left = await api(r.host, 'DELETE', `/api/user/${me.body.Id}/groups/${ADMINISTRATORS}`, { cookie: r.admin.jar });
    expect(left.status, left.text).toBeLessThan(300);

    const res = await cp('POST', `/api/admin/realms/${r.slug}/apply?prune=true`, { Version: 1, Realm: { DisplayName: 'Ops realm' } });
    expectProblem(res, 409, 'User.LastAdministrator');
    const still = await exportOf(r.slug);
    expect(still.Groups.map((g: any) => g.Name)).toEqual(['Ops']);
    const { jar } = await signIn(r.host, 'ops', password);
    const opsMe = await api(r.host, 'GET', '/api/account/me', { cookie: jar });
    expect(opsMe.body.Permissions).toContain('realm:admin');
    // Without prune the same manifest is fine (it deletes nothing).
    expect((await cp('POST', `/api/admin/realms/${r.slug}/apply`, { Version: 1, Realm: { DisplayName: 'Ops realm' } })).status).toBe(200);
  });

  it("is a bare 404 on a realm's host, even for its administrator", async () => {
    for (const [method, path] of [
      ['GET', `/api/admin/realms/${a.slug}/export`],
      ['POST', `/api/admin/realms/${a.slug}/apply`],
      ['POST', '/api/admin/realms/import'],
      ['GET', '/api/admin/realms/manifest-schema'],
    ] as const) {
      expectProblem(await api(a.host, method, path, { cookie: a.admin.jar, body: method === 'POST' ? exportA : undefined }), 404, null);
    }
  });
});

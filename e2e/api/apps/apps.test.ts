import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminCookie, api, CP_HOST, createRealm, expectProblem, realmWithAdmin, type CookieJar } from '../support/harness';
import { realmSql } from '../support/realm-sql';
import { grant, makeUser, MAIN_APP_ID, signedIn } from '../users/fixtures';

// App management (spec 4.7 "Applications"; CONTRACT.md "Apps, privacy and manifests"): create,
// replace and delete with app:write, the built-in Apps' limits, the catalog's consistency with the
// roles, the blockers of a delete, and the subdomain's conflicts. Routing through the subdomain is
// in app-routing.test.ts.

const tag = () => randomBytes(3).toString('hex');
const appBody = (extra: Record<string, unknown> = {}) => ({
  Slug: `app-${tag()}`,
  DisplayName: 'Shop',
  PermissionCatalog: [{ Name: 'orders:read', Description: 'Read orders' }, { Name: 'orders:write' }],
  ...extra,
});

describe('apps', () => {
  let host: string;
  let domain: string;
  let slug: string;
  let admin: CookieJar;

  const create = async (extra: Record<string, unknown> = {}) => {
    const res = await api(host, 'POST', '/api/app', { cookie: admin, body: appBody(extra) });
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  const count = async () => (await api(host, 'GET', '/api/app', { cookie: admin })).body.totalCount as number;

  beforeAll(async () => {
    const realm = await realmWithAdmin();
    ({ host, domain, slug } = realm);
    admin = realm.admin.jar;
  });

  it('POST creates an App (201); GET by id or slug shows its sparse Settings and address; the list omits Settings', async () => {
    const body = appBody({
      Description: 'The web shop',
      Settings: { origin: { subdomain: ' Shop-1 ' }, Branding: { ProductName: 'Shop', PrimaryColor: null, LogoUrl: '' }, Dcr: null },
    });
    const res = await api(host, 'POST', '/api/app', { cookie: admin, body });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      Slug: body.Slug,
      DisplayName: 'Shop',
      Description: 'The web shop',
      IsBuiltIn: false,
      RoleCount: 0,
      PermissionCatalog: [{ Name: 'orders:read', Description: 'Read orders' }, { Name: 'orders:write' }],
      Settings: { Origin: { Subdomain: 'shop-1' }, Branding: { ProductName: 'Shop' } },
      Host: `shop-1.${domain}`,
    });
    expect(res.body.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.PermissionCatalog[1]).toEqual({ Name: 'orders:write' });
    expect(Object.keys(res.body.Settings).sort()).toEqual(['Branding', 'Origin']);

    for (const key of [res.body.Id, body.Slug]) {
      const one = await api(host, 'GET', `/api/app/${key}`, { cookie: admin });
      expect(one.status, one.text).toBe(200);
      expect(one.body).toEqual(res.body);
    }
    const list = await api(host, 'GET', `/api/app?search=${body.Slug}`, { cookie: admin });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].Settings).toBeUndefined();
    expect(list.body.items[0].Slug).toBe(body.Slug);
  });

  it('PUT replaces everything: an absent Description and Settings are cleared', async () => {
    const app = await create({ Description: 'x', Settings: { Branding: { ProductName: 'A' } } });
    const res = await api(host, 'PUT', `/api/app/${app.Id}`, {
      cookie: admin,
      body: { Slug: app.Slug, DisplayName: 'Renamed', PermissionCatalog: [{ Name: 'orders:read' }, { Name: 'refunds:write' }] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ DisplayName: 'Renamed', PermissionCatalog: [{ Name: 'orders:read' }, { Name: 'refunds:write' }] });
    expect(res.body.Description).toBeUndefined();
    expect(res.body.Settings).toBeUndefined();
    expect(res.body.UpdatedAt).toBeTruthy();
  });

  it('400 Validation.Failed with friendly messages at field paths; nothing is created', async () => {
    const before = await count();
    const res = await api(host, 'POST', '/api/app', {
      cookie: admin,
      body: {
        Slug: 'Not A Slug',
        DisplayName: '',
        PermissionCatalog: [{ Name: 'a b' }],
        Settings: { Origin: { Subdomain: '-shop' }, Branding: { Colour: '#000000' }, SelfRegistration: { Posture: 'Open' }, Teams: {} },
      },
    });
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors).sort()).toEqual(
      [
        'Slug',
        'DisplayName',
        'PermissionCatalog.0.Name',
        'Settings',
        'Settings.Origin.Subdomain',
        'Settings.Branding',
        'Settings.SelfRegistration.Posture',
      ].sort(),
    );
    expect(res.body.errors['Settings.Origin.Subdomain'][0]).toMatch(/DNS label/);
    expect(res.text).not.toMatch(/Invalid input|expected/);
    expectProblem(await api(host, 'POST', '/api/app', { cookie: admin, body: appBody({ Slug: 'control-plane' }) }), 400, 'Validation.Failed');
    expect(await count()).toBe(before);
  });

  it('409 App.SlugTaken on create and on a rename', async () => {
    const a = await create();
    const b = await create();
    expectProblem(await api(host, 'POST', '/api/app', { cookie: admin, body: appBody({ Slug: a.Slug }) }), 409, 'App.SlugTaken');
    expectProblem(await api(host, 'POST', '/api/app', { cookie: admin, body: appBody({ Slug: 'gatehouse' }) }), 400, 'Validation.Failed');
    const renamed = await api(host, 'PUT', `/api/app/${b.Id}`, { cookie: admin, body: appBody({ Slug: a.Slug }) });
    expectProblem(renamed, 409, 'App.SlugTaken');
    expect(renamed.body.errors.Slug).toBeDefined();
    expect((await api(host, 'GET', `/api/app/${b.Id}`, { cookie: admin })).body.Slug).toBe(b.Slug);
  });

  it('404 for an unknown App on GET, PUT and DELETE', async () => {
    expectProblem(await api(host, 'GET', '/api/app/no-such-app', { cookie: admin }), 404, 'App.NotFound');
    expectProblem(await api(host, 'PUT', '/api/app/no-such-app', { cookie: admin, body: appBody() }), 404, 'App.NotFound');
    expectProblem(await api(host, 'DELETE', '/api/app/no-such-app', { cookie: admin }), 404, 'App.NotFound');
  });

  it('the built-in App: name, description and catalog may change; its slug and Settings may not, nor may it be deleted', async () => {
    const main = (await api(host, 'GET', `/api/app/${MAIN_APP_ID}`, { cookie: admin })).body;
    const catalog = [...main.PermissionCatalog, { Name: 'reports:read', Description: 'Extra' }];
    const ok = await api(host, 'PUT', `/api/app/gatehouse`, {
      cookie: admin,
      body: { Slug: 'gatehouse', DisplayName: 'Main', Description: 'Ours', PermissionCatalog: catalog },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ DisplayName: 'Main', Description: 'Ours', IsBuiltIn: true });
    expect(ok.body.PermissionCatalog).toHaveLength(catalog.length);

    const slug = await api(host, 'PUT', `/api/app/${MAIN_APP_ID}`, { cookie: admin, body: { Slug: 'main', DisplayName: 'Main', PermissionCatalog: catalog } });
    expectProblem(slug, 400, 'App.BuiltIn');
    expect(Object.keys(slug.body.errors)).toEqual(['Slug']);
    const settings = await api(host, 'PUT', `/api/app/${MAIN_APP_ID}`, {
      cookie: admin,
      body: { Slug: 'gatehouse', DisplayName: 'Main', PermissionCatalog: catalog, Settings: { Origin: { Subdomain: 'main' } } },
    });
    expectProblem(settings, 400, 'App.BuiltIn');
    expect(Object.keys(settings.body.errors)).toEqual(['Settings']);
    expectProblem(await api(host, 'DELETE', `/api/app/${MAIN_APP_ID}`, { cookie: admin }), 400, 'App.BuiltIn');
    // Its catalog still covers the built-in administrator role.
    const drop = await api(host, 'PUT', `/api/app/${MAIN_APP_ID}`, {
      cookie: admin,
      body: { Slug: 'gatehouse', DisplayName: 'Main', PermissionCatalog: catalog.filter((e: { Name: string }) => e.Name !== 'realm:admin') },
    });
    expectProblem(drop, 409, 'App.PermissionInUse');
    expect((await api(host, 'GET', `/api/app/${MAIN_APP_ID}`, { cookie: admin })).body).toMatchObject({ Slug: 'gatehouse', DisplayName: 'Main' });
  });

  it('403 without app:write (app:read may read)', async () => {
    const user = await makeUser(host, admin);
    await grant(host, admin, ['app:read'], user.id);
    const jar = await signedIn(host, user);
    const app = await create();
    expect((await api(host, 'GET', `/api/app/${app.Id}`, { cookie: jar })).status).toBe(200);
    expectProblem(await api(host, 'POST', '/api/app', { cookie: jar, body: appBody() }), 403, 'Auth.Forbidden');
    expectProblem(await api(host, 'PUT', `/api/app/${app.Id}`, { cookie: jar, body: appBody({ Slug: app.Slug }) }), 403, 'Auth.Forbidden');
    expectProblem(await api(host, 'DELETE', `/api/app/${app.Id}`, { cookie: jar }), 403, 'Auth.Forbidden');
    expect((await api(host, 'GET', `/api/app/${app.Id}`, { cookie: admin })).body.DisplayName).toBe('Shop');
  });

  it('app:write alone may not change the sections that open the realm (sign-up, native grants, DCR, CIMD): 403; the rest it may', async () => {
    const user = await makeUser(host, admin);
    await grant(host, admin, ['app:read', 'app:write'], user.id);
    const jar = await signedIn(host, user);
    const gated = await api(host, 'POST', '/api/app', { cookie: jar, body: appBody({ Settings: { SelfRegistration: { Posture: 'JitOnOtp' } } }) });
    expectProblem(gated, 403, 'Auth.Forbidden');
    expect(gated.body.errors).toEqual({ 'Settings.SelfRegistration': ['Only a realm administrator may change this section.'] });
    const ok = await api(host, 'POST', '/api/app', {
      cookie: jar,
      body: appBody({ Settings: { Branding: { ProductName: 'Mine' }, Origin: { Subdomain: `w-${tag()}` } } }),
    });
    expect(ok.status, ok.text).toBe(201);
    // A section a realm administrator set stays as it is through the App writer's replace.
    const set = await api(host, 'PUT', `/api/app/${ok.body.Id}`, {
      cookie: admin,
      body: appBody({ Slug: ok.body.Slug, Settings: { ...ok.body.Settings, Dcr: { Enabled: true } } }),
    });
    expect(set.status, set.text).toBe(200);
    const keep = await api(host, 'PUT', `/api/app/${ok.body.Id}`, {
      cookie: jar,
      body: appBody({ Slug: ok.body.Slug, DisplayName: 'Mine', Settings: set.body.Settings }),
    });
    expect(keep.status, keep.text).toBe(200);
    const drop = await api(host, 'PUT', `/api/app/${ok.body.Id}`, { cookie: jar, body: appBody({ Slug: ok.body.Slug, Settings: ok.body.Settings }) });
    expectProblem(drop, 403, 'Auth.Forbidden');
    expect((await api(host, 'GET', `/api/app/${ok.body.Id}`, { cookie: admin })).body.Settings.Dcr).toEqual({ Enabled: true });
  });

  it('app:write alone may not delete an App that carries a gated section (to create it again without): 403, nothing changes', async () => {
    const user = await makeUser(host, admin);
    await grant(host, admin, ['app:read', 'app:write'], user.id);
    const jar = await signedIn(host, user);
    for (const section of [
      { SelfRegistration: { Posture: 'JitOnOtp' } },
      { NativeGrants: { Enabled: true } },
      { Dcr: { Enabled: true } },
      { Cimd: { Enabled: true } },
    ]) {
      const gated = await create({ Settings: { Branding: { ProductName: 'Gated' }, ...section } });
      const refused = await api(host, 'DELETE', `/api/app/${gated.Id}`, { cookie: jar });
      expectProblem(refused, 403, 'Auth.Forbidden');
      const name = Object.keys(section)[0];
      expect(refused.body.errors).toEqual({ [`Settings.${name}`]: ['Only a realm administrator may change this section.'] });
      const still = await api(host, 'GET', `/api/app/${gated.Id}`, { cookie: admin });
      expect(still.status).toBe(200);
      expect(still.body.Settings[name]).toEqual(section[name as keyof typeof section]);
      // A realm administrator may.
      expect((await api(host, 'DELETE', `/api/app/${gated.Id}`, { cookie: admin })).status).toBe(204);
    }
    // An App without one the App writer deletes as before.
    const plain = await create({ Settings: { Branding: { ProductName: 'Plain' } } });
    expect((await api(host, 'DELETE', `/api/app/${plain.Id}`, { cookie: jar })).status).toBe(204);
  });

  it('409 App.PermissionInUse when the new catalog drops a permission a role grants; nothing changes', async () => {
    const app = await create();
    const role = await api(host, 'POST', '/api/role', { cookie: admin, body: { Name: `Clerks ${tag()}`, AppId: app.Id, Permissions: ['orders:write'] } });
    expect(role.status, role.text).toBe(201);
    const res = await api(host, 'PUT', `/api/app/${app.Id}`, {
      cookie: admin,
      body: appBody({ Slug: app.Slug, PermissionCatalog: [{ Name: 'orders:read' }] }),
    });
    expectProblem(res, 409, 'App.PermissionInUse');
    expect(res.body.Roles).toEqual([{ Id: role.body.Id, Name: role.body.Name, Permissions: ['orders:write'] }]);
    expect(res.body.detail).toContain(role.body.Name);
    expect((await api(host, 'GET', `/api/app/${app.Id}`, { cookie: admin })).body.PermissionCatalog).toHaveLength(2);
    // Dropping one no role grants is fine.
    const ok = await api(host, 'PUT', `/api/app/${app.Id}`, {
      cookie: admin,
      body: appBody({ Slug: app.Slug, PermissionCatalog: [{ Name: 'orders:write' }] }),
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('a new slug is carried into the BoundTo of the groups bound to the old one', async () => {
    const app = await create();
    const group = await api(host, 'POST', '/api/group', { cookie: admin, body: { Name: `Shop staff ${tag()}`, BoundTo: [app.Slug, 'gatehouse'] } });
    expect(group.status, group.text).toBe(201);
    const next = `renamed-${tag()}`;
    const res = await api(host, 'PUT', `/api/app/${app.Id}`, { cookie: admin, body: appBody({ Slug: next }) });
    expect(res.status, res.text).toBe(200);
    const after = await api(host, 'GET', `/api/group/${group.body.Id}`, { cookie: admin });
    expect([...after.body.BoundTo].sort()).toEqual(['gatehouse', next].sort());
  });

  it('DELETE refuses an App in use with 409 listing every blocker, changes nothing, and deletes it once they are gone', async () => {
    const app = await create();
    const role = await api(host, 'POST', '/api/role', { cookie: admin, body: { Name: `Buyers ${tag()}`, AppId: app.Id, Permissions: ['orders:read'] } });
    const oauthApi = await api(host, 'POST', '/api/admin/oauth/apis', {
      cookie: admin,
      body: { Name: `Orders API ${tag()}`, Audience: `https://orders-${tag()}.example.com`, AppId: app.Id },
    });
    const client = await api(host, 'POST', '/api/admin/oauth/clients', {
      cookie: admin,
      body: {
        ClientId: `shop-${tag()}`,
        DisplayName: 'Shop web',
        ClientType: 'Public',
        ConsentType: 'Explicit',
        RedirectUris: ['https://shop.example.com/cb'],
        GrantTypes: ['authorization_code'],
        Scopes: ['openid'],
        AppId: app.Id,
      },
    });
    const code = await api(host, 'POST', `/api/app/${app.Id}/invite-codes`, { cookie: admin, body: { Label: 'Spring' } });
    const spent = await api(host, 'POST', `/api/app/${app.Id}/invite-codes`, { cookie: admin, body: {} });
    for (const r of [role, oauthApi, client, code, spent]) expect(r.status, r.text).toBe(201);
    expect((await api(host, 'DELETE', `/api/app/${app.Id}/invite-codes/${spent.body.Id}`, { cookie: admin })).status).toBe(204);

    const res = await api(host, 'DELETE', `/api/app/${app.Id}`, { cookie: admin });
    expectProblem(res, 409, 'App.InUse');
    expect(res.body.Blockers).toEqual([
      { Kind: 'Role', Id: role.body.Id, Name: role.body.Name },
      { Kind: 'OAuthApi', Id: oauthApi.body.Id, Name: oauthApi.body.Name },
      { Kind: 'OAuthClient', Id: client.body.Id, Name: `Shop web (${client.body.ClientId})` },
      { Kind: 'InviteCode', Id: code.body.Id, Name: 'Spring' },
    ]);
    expect(res.body.detail).toMatch(/^Still used by 1 role .*1 OAuth API .*1 OAuth client .* and 1 active invite code\./);
    expect((await api(host, 'GET', `/api/app/${app.Id}`, { cookie: admin })).status).toBe(200);

    expect((await api(host, 'DELETE', `/api/role/${role.body.Id}`, { cookie: admin })).status).toBe(204);
    expect((await api(host, 'DELETE', `/api/admin/oauth/apis/${oauthApi.body.Id}`, { cookie: admin })).status).toBe(204);
    const left = await api(host, 'DELETE', `/api/app/${app.Id}`, { cookie: admin });
    expectProblem(left, 409, 'App.InUse');
    expect(left.body.Blockers.map((b: { Kind: string }) => b.Kind)).toEqual(['OAuthClient', 'InviteCode']);

    expect((await api(host, 'DELETE', `/api/admin/oauth/clients/${client.body.Id}`, { cookie: admin })).status).toBe(204);
    expect((await api(host, 'DELETE', `/api/app/${app.Id}/invite-codes/${code.body.Id}`, { cookie: admin })).status).toBe(204);
    expect((await api(host, 'DELETE', `/api/app/${app.Id}`, { cookie: admin })).status).toBe(204);
    expectProblem(await api(host, 'GET', `/api/app/${app.Id}`, { cookie: admin }), 404, 'App.NotFound');
    // Its spent invite codes went with it.
    expect(await realmSql(slug, 'SELECT "id" FROM "InviteCode" WHERE "appId" = $1', [app.Id])).toEqual([]);
  }, 240_000); // many endpoints, each compiled on first use by the development server

  describe('the subdomain', () => {
    it('409 App.SubdomainTaken for another App’s address; nothing is created', async () => {
      const sub = `s-${tag()}`;
      await create({ Settings: { Origin: { Subdomain: sub } } });
      const before = await count();
      const res = await api(host, 'POST', '/api/app', { cookie: admin, body: appBody({ Settings: { Origin: { Subdomain: sub } } }) });
      expectProblem(res, 409, 'App.SubdomainTaken');
      expect(res.body.errors['Settings.Origin.Subdomain']).toHaveLength(1);
      expect(await count()).toBe(before);
      // An App keeping its own subdomain on PUT is no conflict.
      const mine = await create({ Settings: { Origin: { Subdomain: `m-${tag()}` } } });
      const again = await api(host, 'PUT', `/api/app/${mine.Id}`, { cookie: admin, body: appBody({ Slug: mine.Slug, Settings: mine.Settings }) });
      expect(again.status, again.text).toBe(200);
      expect(again.body.Host).toBe(mine.Host);
    });

    it('409 App.SubdomainTaken for a host that is a realm’s domain (of any realm); the realm PATCH refuses an App address', async () => {
      const sub = `d-${tag()}`;
      const other = await createRealm({ Domains: [`other-${tag()}.localhost`, `${sub}.${domain}`] });
      expect(other.body.Realm.Domains).toContain(`${sub}.${domain}`);
      const res = await api(host, 'POST', '/api/app', { cookie: admin, body: appBody({ Settings: { Origin: { Subdomain: sub } } }) });
      expectProblem(res, 409, 'App.SubdomainTaken');

      const app = await create({ Settings: { Origin: { Subdomain: `r-${tag()}` } } });
      const patch = await api(CP_HOST, 'PATCH', `/api/admin/realms/${other.slug}`, {
        cookie: adminCookie(),
        body: { Domains: [other.domain, app.Host] },
      });
      expectProblem(patch, 409, 'Realm.DomainIsAppAddress');
      const created = await api(CP_HOST, 'POST', '/api/admin/realms', {
        cookie: adminCookie(),
        body: { Slug: `t-${tag()}x`, DisplayName: 'X', Domains: [app.Host] },
      });
      expectProblem(created, 409, 'Realm.DomainIsAppAddress');
    });
  });
});

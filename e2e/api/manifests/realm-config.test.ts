import { beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, expectProblem, hostHeader, realmWithAdmin, signIn, strongPassword, type SignedIn } from '../support/harness';
import { buildStructure, EMPTY, expectStructure } from './fixtures';

// The realm-config routes (spec 4.8 "Per-realm self-service"): a realm's own administrator exports,
// plans and applies manifests for that realm; everyone else is refused.
const EXPORT = '/api/admin/realm-config/export';
const APPLY = '/api/admin/realm-config/apply';

describe('realm-config manifests', () => {
  let admin: SignedIn;
  let host: string;
  let exported: any;

  const exportNow = async () => {
    const res = await api(host, 'GET', EXPORT, { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const apply = (body: unknown, query = '') => api(host, 'POST', `${APPLY}${query}`, { cookie: admin.jar, body });

  beforeAll(async () => {
    const realm = await realmWithAdmin();
    admin = realm.admin;
    host = realm.host;
    await buildStructure(admin);
    exported = await exportNow();
  });

  it('exports the structure the admin API made: sorted, by natural key, without ids, secrets or built-ins', () => {
    expectStructure(exported);
    expect(exported.Realm.DisplayName).toMatch(/^Realm /);
    expect(exported.Settings.SignIn.Password).toBe(true);
  });

  it('answers the JSON Schema and an example that applies cleanly in a dry run', async () => {
    const res = await api(host, 'GET', '/api/admin/realm-config/manifest-schema', { cookie: admin.jar });
    expect(res.status).toBe(200);
    expect(res.body.Schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const plan = await apply(res.body.Example, '?dryRun=true');
    expect(plan.status, plan.text).toBe(200);
    expect(plan.body.Created).toEqual(expect.arrayContaining(['group:Help desk', 'role:gatehouse/User manager']));
  });

  it('re-applying the export changes nothing (idempotent), with or without prune', async () => {
    for (const query of ['', '?prune=true']) {
      const res = await apply(exported, query);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject(EMPTY);
      expect(res.body.Unchanged).toBeGreaterThan(10);
      expect(res.body.ClientSecrets).toBeUndefined();
    }
  });

  it('a dry run answers the plan and changes nothing', async () => {
    const changed = structuredClone(exported);
    changed.Groups[0].Description = 'The sellers';
    changed.Apps.push({ Slug: 'shop', DisplayName: 'Shop', PermissionCatalog: [] });
    changed.ServiceAccounts = [];
    const merge = await apply(changed, '?dryRun=true');
    expect(merge.status, merge.text).toBe(200);
    expect(merge.body).toMatchObject({ Created: ['app:shop'], Updated: ['group:Sales'], Deleted: [] });
    const prune = await apply(changed, '?dryRun=true&prune=true');
    expect(prune.body.Deleted).toEqual(['service-account:Reporting']);
    expect(await exportNow()).toEqual(exported);
  });

  it('applies a change once: the second apply finds nothing to do', async () => {
    const changed = structuredClone(exported);
    changed.Groups[0].Description = 'The sellers';
    changed.OAuthClients.push({
      ClientId: 'nightly',
      DisplayName: 'Nightly',
      ClientType: 'Confidential',
      GrantTypes: ['client_credentials'],
      Scopes: ['orders.read'],
    });
    const first = await apply(changed);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ Created: ['oauth-client:nightly'], Updated: ['group:Sales'], Deleted: [] });
    // The new confidential client's secret, once; it works at the token endpoint.
    expect(first.body.ClientSecrets).toEqual([{ ClientId: 'nightly', ClientSecret: expect.any(String) }]);
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'nightly', client_secret: first.body.ClientSecrets[0].ClientSecret });
    const token = await api(host, 'POST', '/connect/token', { rawBody: form.toString(), contentType: 'application/x-www-form-urlencoded' });
    expect(token.status, token.text).toBe(200);
    const second = await apply(changed);
    expect(second.body).toMatchObject(EMPTY);
    expect(second.body.ClientSecrets).toBeUndefined();
    const after = await exportNow();
    expect(after.Groups[0].Description).toBe('The sellers');
    expect(JSON.stringify(after)).not.toContain(first.body.ClientSecrets[0].ClientSecret);
    exported = after;
  });

  it('prune deletes what the manifest does not name and spares built-ins', async () => {
    const trimmed = structuredClone(exported);
    trimmed.OAuthClients = trimmed.OAuthClients.filter((c: any) => c.ClientId !== 'nightly');
    trimmed.ServiceAccounts = [];
    const res = await apply(trimmed, '?prune=true');
    expect(res.status, res.text).toBe(200);
    expect(res.body.Deleted).toEqual(['oauth-client:nightly', 'service-account:Reporting']);
    // An empty manifest prunes everything the realm made, and nothing it was seeded with.
    const empty = await apply({ Version: 1, Realm: trimmed.Realm }, '?prune=true');
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body.Deleted).toEqual(
      expect.arrayContaining(['app:crm', 'role:crm/Editor', 'group:Sales', 'oauth-api:https://api.acme.test/orders', 'login-provider:Corporate SSO']),
    );
    const after = await exportNow();
    expect(after.Apps).toEqual([]);
    expect(after.Groups).toEqual([]);
    const apps = await api(host, 'GET', '/api/app', { cookie: admin.jar });
    expect(apps.body.items.map((a: any) => a.Slug)).toContain('gatehouse');
    const groups = await api(host, 'GET', '/api/group', { cookie: admin.jar });
    expect(groups.body.items.map((g: any) => g.Name)).toContain('Administrators');
    const scopes = await api(host, 'GET', '/api/admin/oauth/scopes?pageSize=100', { cookie: admin.jar });
    expect(scopes.body.items.map((s: any) => s.Name)).toEqual(expect.arrayContaining(['openid', 'gatehouse.management']));
    // The administrator still is one.
    const me = await api(host, 'GET', '/api/account/me', { cookie: admin.jar });
    expect(me.body.Permissions).toContain('realm:admin');
    // Put it back for the next tests.
    const back = await apply(exported, '?prune=true');
    expect(back.status, back.text).toBe(200);
    exported = await exportNow();
  });

  it("routes an App's subdomain when a manifest gives it one, and releases it when the App is pruned", async () => {
    const domain = host.split(':')[0];
    const shopHost = hostHeader(`shop.${domain}`);
    const withShop = structuredClone(exported);
    withShop.Apps.push({ Slug: 'shop', DisplayName: 'Shop', PermissionCatalog: [], Settings: { Origin: { Subdomain: 'shop' } } });
    const added = await apply(withShop);
    expect(added.status, added.text).toBe(200);
    expect(added.body.Created).toEqual(['app:shop']);
    const info = await api(shopHost, 'GET', '/api/app-info');
    expect(info.status, info.text).toBe(200);
    expect(info.body.App.Slug).toBe('shop');
    expect((await apply(withShop)).body).toMatchObject(EMPTY);
    const pruned = await apply(exported, '?prune=true');
    expect(pruned.body.Deleted).toEqual(['app:shop']);
    expectProblem(await api(shopHost, 'GET', '/api/app-info'), 404);
  });

  it('refuses an invalid manifest with JSON pointers and changes nothing', async () => {
    const dangling = structuredClone(exported);
    dangling.Description = undefined;
    dangling.Apps.push({ Slug: 'shop', DisplayName: 'Shop', PermissionCatalog: [] });
    dangling.Groups[1].Roles.push({ App: 'crm', Name: 'Ghost' });
    let res = await apply(dangling);
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors)).toEqual(['/Groups/1/Roles/2']);

    const badField = structuredClone(exported);
    badField.OAuthClients[0].ClientType = 'Sideways';
    badField.Colour = 'red';
    res = await apply(badField);
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors)).toContain('/OAuthClients/0/ClientType');

    const stray = structuredClone(exported);
    stray.Groups[0].Owner = 'me';
    res = await apply(stray);
    expect(Object.keys(res.body.errors)).toEqual(['/Groups/0/Owner']);

    // Prototype keys are plain (refused) keys, never a way into the objects.
    const proto = `{"Version":1,"Realm":{"DisplayName":"X","__proto__":{"admin":true}},"Groups":[{"Name":"Evil","constructor":{"prototype":{"x":1}}}]}`;
    res = await api(host, 'POST', APPLY, { cookie: admin.jar, rawBody: proto });
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors).sort()).toEqual(['/Groups/0/constructor', '/Realm/__proto__']);

    // A valid manifest whose write fails (a client type cannot change) changes nothing either.
    const immutable = structuredClone(exported);
    immutable.Groups[0].Description = 'would change';
    const cli = immutable.OAuthClients.findIndex((c: any) => c.ClientId === 'crm-cli');
    immutable.OAuthClients[cli] = { ...immutable.OAuthClients[cli], ClientType: 'Confidential', RedirectUris: ['https://x.test/cb'] };
    res = await apply(immutable);
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors)).toEqual([`/OAuthClients/${cli}/ClientType`]);

    expect(await exportNow()).toEqual(exported);
  });

  it('records the apply in the security log', async () => {
    await eventually(async () => {
      const log = await api(host, 'GET', '/api/admin/auth-log', { cookie: admin.jar });
      const entry = log.body.find((e: any) => e.EventType === 'manifest.applied');
      expect(entry).toMatchObject({ Category: 'Configuration' });
    });
  });

  it('is refused to someone who is not the realm administrator', async () => {
    const password = strongPassword();
    const user = await api(host, 'POST', '/api/user', { cookie: admin.jar, body: { UserName: 'plain', Email: 'plain@example.test', Password: password } });
    expect(user.status, user.text).toBe(201);
    const { jar } = await signIn(host, 'plain', password);
    for (const [method, path] of [
      ['GET', EXPORT],
      ['GET', '/api/admin/realm-config/manifest-schema'],
      ['POST', APPLY],
    ] as const) {
      expectProblem(await api(host, method, path, { cookie: jar, body: method === 'POST' ? exported : undefined }), 403, 'Auth.Forbidden');
    }
    expectProblem(await api(host, 'GET', EXPORT), 401);
  });
});

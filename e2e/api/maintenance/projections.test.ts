import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectLogged } from '../mfa/fixtures';
import { api, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';
import { createClient, discover } from '../support/oauth';
import { globalSql, realmSql } from '../support/realm-sql';
import { grant, MAIN_APP_ID, makeUser, signedIn } from '../users/fixtures';

// Maintenance (spec 4.7 "Maintenance"): the consistency check compares every derived store of the
// realm with what it is derived from, and the rebuild recomputes them. Each projection is corrupted
// behind the product's back (rows changed in the databases directly while copies are cached), the
// check must name the difference, the rebuild fix it, and the check then find everything consistent.
// Only this file's own realm is touched.

const CHECK = '/api/admin/projections/consistency-check';
const REBUILD = '/api/admin/projections/rebuild';

type StoreReport = { Name: string; Consistent: boolean; Differences: string[]; Changes?: string[] };
const store = (body: { Stores: StoreReport[] }, name: string) => body.Stores.find((s) => s.Name === name)!;

describe('projections: consistency check and rebuild', () => {
  let host: string;
  let slug: string;
  let domain: string;
  let realmId: string;
  let admin: SignedIn;

  beforeAll(async () => {
    const realm = await realmWithAdmin();
    ({ host, slug, domain, admin } = realm);
    realmId = realm.body.Realm.Id;
  });

  it('needs a session (401) and realm:admin (403)', async () => {
    expectProblem(await api(host, 'GET', CHECK), 401);
    expectProblem(await api(host, 'POST', REBUILD), 401);
    const user = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['user:write', 'oauth-client:write', 'authorization-group:write'], user.id);
    const jar = await signedIn(host, user);
    expectProblem(await api(host, 'GET', CHECK, { cookie: jar }), 403, 'Auth.Forbidden');
    expectProblem(await api(host, 'POST', REBUILD, { cookie: jar }), 403, 'Auth.Forbidden');
  });

  it('finds corrupted projections, rebuilds them, and then finds everything consistent', async () => {
    const fresh = await api(host, 'GET', CHECK, { cookie: admin.jar });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.Stores.map((s: StoreReport) => s.Name)).toEqual(
      expect.arrayContaining(['ApplicationDomains', 'RealmCache', 'RealmSettings', 'AppSettings', 'GroupGraph', 'OAuthEngine']),
    );
    expect(fresh.body, fresh.text).toMatchObject({ Consistent: true });

    // App routes: an App asks for shop.<domain> that has no route; stale.<domain> routes to nothing that asks.
    const shopApp = randomUUID();
    await realmSql(
      slug,
      `INSERT INTO "App" ("id", "slug", "displayName", "settings", "createdAt") SELECT $1, $2, 'Shop', $3, "createdAt" FROM "App" WHERE "id" = $4`,
      [shopApp, `shop-${shopApp.slice(0, 6)}`, JSON.stringify({ Origin: { Subdomain: 'shop' } }), MAIN_APP_ID],
    );
    await globalSql('INSERT INTO "RealmAppDomain" ("host", "realmId", "appId") VALUES ($1, $2, $3)', [`stale.${domain}`, realmId, randomUUID()]);

    // Cached copies made stale: realm settings, the group graph, an OAuth client the engine looked up.
    expect((await api(host, 'GET', '/api/realm-settings', { cookie: admin.jar })).status).toBe(200);
    await realmSql(
      slug,
      `INSERT INTO "RealmSettings" ("id", "document") VALUES ('realm', $1) ON CONFLICT ("id") DO UPDATE SET "document" = excluded."document"`,
      [JSON.stringify({ Features: { PositionTerminals: true } })],
    );
    const { roleId } = await grant(host, admin.jar, ['user:read']);
    expect((await api(host, 'GET', '/api/user', { cookie: admin.jar })).status).toBe(200); // caches the graph
    await realmSql(slug, 'UPDATE "PermissionRole" SET "permissions" = $1 WHERE "id" = $2', [JSON.stringify(['user:read', 'session:read']), roleId]);
    const job = await createClient(host, admin.jar, {
      DisplayName: 'Job',
      ClientType: 'Confidential',
      GrantTypes: ['client_credentials'],
      Scopes: ['gatehouse.management'],
    });
    await oidc.clientCredentialsGrant(await discover(host, job.ClientId, job.ClientSecret), { scope: 'gatehouse.management' });
    await realmSql(slug, 'UPDATE "OAuthClient" SET "scopes" = $1 WHERE "clientId" = $2', ['[]', job.ClientId]);

    const check = await api(host, 'GET', CHECK, { cookie: admin.jar });
    expect(check.body.Consistent).toBe(false);
    expect(store(check.body, 'ApplicationDomains')).toEqual({
      Name: 'ApplicationDomains',
      Consistent: false,
      Differences: [
        `Host shop.${domain} should route to application ${shopApp} but has no route.`,
        expect.stringMatching(new RegExp(`^Host stale\\.${domain.replace(/\./g, '\\.')} routes to application [0-9a-f-]{36}, which does not ask for it\\.$`)),
      ],
    });
    expect(store(check.body, 'RealmSettings').Differences).toEqual(['The cached realm settings are out of date in: Features.']);
    expect(store(check.body, 'GroupGraph').Differences).toEqual([
      expect.stringMatching(/^Group [0-9a-f-]{36}: the cached nesting, binding, roles or permissions are out of date\.$/),
    ]);
    expect(store(check.body, 'OAuthEngine').Differences).toContain(`Client ${job.ClientId}: the engine's cached copy is out of date.`);
    // Plain, PII-free words: no addresses or user names.
    expect(check.text).not.toContain(admin.email);
    expect(check.text).not.toContain(admin.userName);

    // Checking changed nothing.
    expect((await api(host, 'GET', CHECK, { cookie: admin.jar })).body.Consistent).toBe(false);

    const rebuilt = await api(host, 'POST', REBUILD, { cookie: admin.jar });
    expect(rebuilt.status, rebuilt.text).toBe(200);
    expect(rebuilt.body.Consistent).toBe(true);
    expect(store(rebuilt.body, 'ApplicationDomains').Changes).toEqual([
      `Added the route shop.${domain} to application ${shopApp}.`,
      expect.stringMatching(/^Removed the route stale\./),
    ]);
    expect(store(rebuilt.body, 'RealmSettings').Changes).toEqual(['Dropped the cached realm settings.']);
    expect(store(rebuilt.body, 'GroupGraph').Changes).toEqual(['Dropped the cached group graph; the next permission check reads it afresh.']);
    expect(store(rebuilt.body, 'OAuthEngine').Changes?.join(' ')).toContain('client');

    const rows = await globalSql<{ host: string; appId: string }>('SELECT "host", "appId" FROM "RealmAppDomain" WHERE "realmId" = $1', [realmId]);
    expect(rows).toEqual([{ host: `shop.${domain}`, appId: shopApp }]);

    const after = await api(host, 'GET', CHECK, { cookie: admin.jar });
    expect(after.body, after.text).toMatchObject({ Consistent: true });
    expect(after.body.Stores.every((s: StoreReport) => s.Consistent && s.Differences.length === 0)).toBe(true);
    // The rebuilt stores are in use: the settings read afresh.
    expect((await api(host, 'GET', '/api/realm-settings', { cookie: admin.jar })).body.Features.PositionTerminals).toBe(true);

    // A second rebuild has nothing left to change in the stored routes.
    const again = await api(host, 'POST', REBUILD, { cookie: admin.jar });
    expect(store(again.body, 'ApplicationDomains').Changes).toEqual([]);
    await expectLogged(host, admin.jar, 'projections.rebuilt');
  });
});

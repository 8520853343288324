import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, expectProblem, type CookieJar, type SignedIn } from '../support/harness';
import { realmSql } from '../support/realm-sql';
import { grant, makeUser, MAIN_APP_ID, signedIn } from '../users/fixtures';
import { CLIENTS, createClient, engineRowCount, insertServiceAccountClient, spaBody, storeEngineRow, tag } from './fixtures';

// OAuth clients (spec 4.7 "OAuth clients"; CONTRACT.md "Admin payloads"): create with the secret
// shown once and only its SHA-256 stored, validation, merge-patch updates (spec 4.9), secret
// regeneration, delete revoking what the engine stored, service-account clients left alone, and
// the permission checks.
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('OAuth clients', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;

  beforeAll(async () => {
    ({ host, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
  });

  it('creates a public client: 201 with the resource, defaults filled in, no secret', async () => {
    const body = spaBody();
    const res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      ClientId: body.ClientId,
      DisplayName: 'Single-page app',
      ClientType: 'Public',
      ConsentType: 'Explicit',
      AccessTokenType: 'Jwt',
      RedirectUris: ['https://spa.example.com/callback'],
      PostLogoutRedirectUris: ['https://spa.example.com/'],
      GrantTypes: ['authorization_code', 'refresh_token'],
      Scopes: ['openid', 'profile', 'offline_access'],
      Capabilities: [],
      IsActive: true,
      IsDynamic: false,
    });
    expect(res.body.Id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).not.toHaveProperty('ClientSecret');
    expect(res.text).not.toMatch(/hash/i);
    const [row] = await realmSql<{ secretHash: string | null }>(slug, 'SELECT "secretHash" FROM "OAuthClient" WHERE "id" = $1', [res.body.Id]);
    expect(row.secretHash).toBeNull();
  });

  it('creates a confidential client: a generated ClientId, the secret once, only its SHA-256 stored', async () => {
    const res = await api(host, 'POST', CLIENTS, {
      cookie: admin.jar,
      body: {
        DisplayName: 'Backend',
        ClientType: 'Confidential',
        ConsentType: 'Implicit',
        AccessTokenType: 'Reference',
        GrantTypes: ['client_credentials'],
        Scopes: [],
        Capabilities: ['cap:trusted-forwarder'],
        AppId: MAIN_APP_ID,
      },
    });
    expect(res.status, res.text).toBe(201);
    const { Id, ClientId, ClientSecret } = res.body;
    expect(ClientId).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(ClientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body).toMatchObject({
      ClientType: 'Confidential',
      ConsentType: 'Implicit',
      AccessTokenType: 'Reference',
      Capabilities: ['cap:trusted-forwarder'],
      AppId: MAIN_APP_ID,
      RedirectUris: [],
    });
    expect(typeof res.body.SecretCreatedAt).toBe('string');

    const [row] = await realmSql<{ secretHash: string }>(slug, 'SELECT "secretHash" FROM "OAuthClient" WHERE "id" = $1', [Id]);
    expect(row.secretHash).toBe(sha256(ClientSecret));
    expect(JSON.stringify(await realmSql(slug, 'SELECT * FROM "OAuthClient"'))).not.toContain(ClientSecret);

    // Never shown again: not by id, not by ClientId, not in the list.
    for (const path of [`${CLIENTS}/${Id}`, `${CLIENTS}/${ClientId}`, `${CLIENTS}?pageSize=200`]) {
      const again = await api(host, 'GET', path, { cookie: admin.jar });
      expect(again.status, again.text).toBe(200);
      expect(again.text).not.toContain(ClientSecret);
      expect(again.text).not.toMatch(/"ClientSecret"|hash/i);
    }
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['client_credentials on a public client', { GrantTypes: ['client_credentials'] }, 'GrantTypes'],
    ['an unknown grant type', { GrantTypes: ['authorization_code', 'password'] }, 'GrantTypes'],
    ['no grant type', { GrantTypes: [] }, 'GrantTypes'],
    ['authorization_code without a redirect URI', { RedirectUris: [] }, 'RedirectUris'],
    ['an http redirect URI on a public host', { RedirectUris: ['http://spa.example.com/cb'] }, 'RedirectUris'],
    ['a redirect URI with a fragment', { RedirectUris: ['https://spa.example.com/cb#x'] }, 'RedirectUris'],
    ['a relative redirect URI', { RedirectUris: ['/cb'] }, 'RedirectUris'],
    ['a javascript: redirect URI', { RedirectUris: ['javascript:alert(1)'] }, 'RedirectUris'],
    ['a bad post-logout URI', { PostLogoutRedirectUris: ['http://evil.example/'] }, 'PostLogoutRedirectUris'],
    ['the trusted-forwarder capability on a public client', { Capabilities: ['cap:trusted-forwarder'] }, 'Capabilities'],
    ['an unknown capability', { Capabilities: ['cap:root'] }, 'Capabilities'],
    ['an unknown client type', { ClientType: 'Secret' }, 'ClientType'],
    ['an unknown consent type', { ConsentType: 'Maybe' }, 'ConsentType'],
    ['an unknown access-token type', { AccessTokenType: 'Opaque' }, 'AccessTokenType'],
    ['an unknown App', { AppId: randomUUID() }, 'AppId'],
    ['no display name', { DisplayName: undefined }, 'DisplayName'],
    ['a client id with spaces', { ClientId: 'my client' }, 'ClientId'],
  ])('refuses %s with 400 Validation.Failed naming the field', async (_what, extra, field) => {
    const res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: spaBody(extra) });
    expectProblem(res, 400, 'Validation.Failed');
    expect(Object.keys(res.body.errors)).toContain(field);
  });

  it('names every unknown scope', async () => {
    const res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: spaBody({ Scopes: ['openid', 'orders.read', 'billing'] }) });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors.Scopes[0]).toContain('orders.read, billing');
  });

  it('accepts loopback and native redirect URIs', async () => {
    const res = await api(host, 'POST', CLIENTS, {
      cookie: admin.jar,
      body: spaBody({ RedirectUris: ['http://127.0.0.1:7777/cb', 'http://localhost/cb', 'http://app.localhost/cb', 'com.example.app:/oauth2redirect'] }),
    });
    expect(res.status, res.text).toBe(201);
  });

  it('a taken ClientId is 409 OAuthClient.ClientIdTaken', async () => {
    const body = spaBody();
    await createClient(host, admin.jar, body);
    expectProblem(await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: { ...body, DisplayName: 'Copy' } }), 409, 'OAuthClient.ClientIdTaken');
  });

  it('request names match case-insensitively', async () => {
    const res = await api(host, 'POST', CLIENTS, {
      cookie: admin.jar,
      body: { clientId: `lower-${tag()}`, displayName: 'Lower', clientType: 'Public', grantTypes: ['urn:gatehouse:otp'], scopes: ['openid'] },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.GrantTypes).toEqual(['urn:gatehouse:otp']);
  });

  it('lists clients with paging and search; unknown ids are 404', async () => {
    const marked = await createClient(host, admin.jar, spaBody({ DisplayName: `Findable ${tag()}` }));
    const page = await api(host, 'GET', `${CLIENTS}?pageSize=2`, { cookie: admin.jar });
    expect(page.status, page.text).toBe(200);
    expect(page.body).toMatchObject({ page: 1, pageSize: 2 });
    expect(page.body.items).toHaveLength(2);
    expect(page.body.totalCount).toBeGreaterThan(2);
    const found = await api(host, 'GET', `${CLIENTS}?search=${encodeURIComponent(String(marked.DisplayName).toLowerCase())}`, { cookie: admin.jar });
    expect(found.body.items.map((c: { Id: string }) => c.Id)).toEqual([marked.Id]);
    const confidential = await api(host, 'GET', `${CLIENTS}?clientType=Confidential&pageSize=200`, { cookie: admin.jar });
    expect(confidential.body.items.every((c: { ClientType: string }) => c.ClientType === 'Confidential')).toBe(true);
    expectProblem(await api(host, 'GET', `${CLIENTS}/${randomUUID()}`, { cookie: admin.jar }), 404, 'OAuthClient.NotFound');
  });

  describe('PUT is a merge-patch', () => {
    let client: { Id: string; ClientId: string };

    beforeAll(async () => {
      client = await createClient(host, admin.jar, spaBody({ Description: 'first' }));
    });

    const put = (body: Record<string, unknown>) => api(host, 'PUT', `${CLIENTS}/${client.Id}`, { cookie: admin.jar, body });

    it('omitted fields stay; sent ones change', async () => {
      const res = await put({ DisplayName: 'Renamed' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        DisplayName: 'Renamed',
        Description: 'first',
        ConsentType: 'Explicit',
        RedirectUris: ['https://spa.example.com/callback'],
        Scopes: ['openid', 'profile', 'offline_access'],
      });
      expect(typeof res.body.UpdatedAt).toBe('string');
    });

    it('null or "" clears optional text; null leaves the enum-like fields and flags alone', async () => {
      expect((await put({ Description: null, ConsentType: null, AccessTokenType: null, IsActive: null, DisplayName: null })).body).toMatchObject({
        ConsentType: 'Explicit',
        AccessTokenType: 'Jwt',
        IsActive: true,
        DisplayName: 'Renamed',
      });
      expect((await api(host, 'GET', `${CLIENTS}/${client.Id}`, { cookie: admin.jar })).body).not.toHaveProperty('Description');
      await put({ Description: 'again' });
      expect((await put({ Description: '' })).body).not.toHaveProperty('Description');
      expect((await put({ ConsentType: 'Implicit', AccessTokenType: 'Reference' })).body).toMatchObject({
        ConsentType: 'Implicit',
        AccessTokenType: 'Reference',
      });
    });

    it('lists are replaced entirely; [] clears them', async () => {
      const res = await put({ RedirectUris: ['https://a.example.com/cb', 'https://b.example.com/cb'], Scopes: ['openid'], PostLogoutRedirectUris: [] });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        RedirectUris: ['https://a.example.com/cb', 'https://b.example.com/cb'],
        Scopes: ['openid'],
        PostLogoutRedirectUris: [],
      });
    });

    it('the merged state is validated as a create would be', async () => {
      expect(Object.keys((await put({ RedirectUris: [] })).body.errors)).toContain('RedirectUris');
      expect(Object.keys((await put({ GrantTypes: ['client_credentials'] })).body.errors)).toContain('GrantTypes');
      expect(Object.keys((await put({ GrantTypes: null })).body.errors)).toContain('GrantTypes');
      const res = await put({ Scopes: ['openid', 'nope'] });
      expectProblem(res, 400, 'Validation.Failed');
      expect(res.body.errors.Scopes[0]).toContain('nope');
    });

    it('ClientId and ClientType never change; sending the current values is fine', async () => {
      const other = await put({ ClientId: 'something-else', ClientType: 'Confidential' });
      expectProblem(other, 400, 'Validation.Failed');
      expect(Object.keys(other.body.errors).sort()).toEqual(['ClientId', 'ClientType']);
      const same = await put({ ClientId: client.ClientId, ClientType: 'Public', DisplayName: 'Same keys' });
      expect(same.status, same.text).toBe(200);
      expect(same.body).toMatchObject({ ClientId: client.ClientId, ClientType: 'Public', DisplayName: 'Same keys' });
    });

    it('the client may be addressed by its ClientId', async () => {
      const res = await api(host, 'PUT', `${CLIENTS}/${client.ClientId}`, { cookie: admin.jar, body: { Description: 'by client id' } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.Id).toBe(client.Id);
    });

    it('deactivating revokes what the engine stored for the client', async () => {
      await storeEngineRow(slug, client.ClientId);
      expect(await engineRowCount(slug, client.ClientId)).toBe(1);
      const res = await put({ IsActive: false });
      expect(res.body.IsActive).toBe(false);
      expect(await engineRowCount(slug, client.ClientId)).toBe(0);
      expect((await put({ IsActive: true })).body.IsActive).toBe(true);
    });
  });

  it('regenerate-secret: a new secret once, the old digest replaced, issued tokens kept', async () => {
    const created = await createClient(host, admin.jar, { DisplayName: 'Rotating', ClientType: 'Confidential', GrantTypes: ['client_credentials'] });
    await storeEngineRow(slug, created.ClientId);
    const res = await api(host, 'POST', `${CLIENTS}/${created.Id}/regenerate-secret`, { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['ClientId', 'ClientSecret']);
    expect(res.body.ClientId).toBe(created.ClientId);
    expect(res.body.ClientSecret).not.toBe(created.ClientSecret);
    const [row] = await realmSql<{ secretHash: string }>(slug, 'SELECT "secretHash" FROM "OAuthClient" WHERE "id" = $1', [created.Id]);
    expect(row.secretHash).toBe(sha256(res.body.ClientSecret));
    expect(await engineRowCount(slug, created.ClientId)).toBe(1);

    const spa = await createClient(host, admin.jar, spaBody());
    expectProblem(await api(host, 'POST', `${CLIENTS}/${spa.Id}/regenerate-secret`, { cookie: admin.jar }), 400, 'OAuthClient.NotConfidential');
    expectProblem(await api(host, 'POST', `${CLIENTS}/${randomUUID()}/regenerate-secret`, { cookie: admin.jar }), 404, 'OAuthClient.NotFound');
  });

  it('delete: 204, the client and everything the engine stored for it are gone, nothing else', async () => {
    const doomed = await createClient(host, admin.jar, spaBody());
    const bystander = await createClient(host, admin.jar, spaBody());
    await storeEngineRow(slug, doomed.ClientId);
    await storeEngineRow(slug, doomed.ClientId);
    await storeEngineRow(slug, bystander.ClientId);
    expect((await api(host, 'DELETE', `${CLIENTS}/${doomed.Id}`, { cookie: admin.jar })).status).toBe(204);
    expectProblem(await api(host, 'GET', `${CLIENTS}/${doomed.Id}`, { cookie: admin.jar }), 404, 'OAuthClient.NotFound');
    expect(await engineRowCount(slug, doomed.ClientId)).toBe(0);
    expect(await engineRowCount(slug, bystander.ClientId)).toBe(1);
    expectProblem(await api(host, 'DELETE', `${CLIENTS}/${doomed.Id}`, { cookie: admin.jar }), 404, 'OAuthClient.NotFound');
  });

  it("a service-account credential's client is listed but cannot be changed here (409)", async () => {
    const sa = await insertServiceAccountClient(slug);
    const list = await api(host, 'GET', `${CLIENTS}?search=${sa.clientId}`, { cookie: admin.jar });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ Id: sa.id, ClientId: sa.clientId, ServiceAccountId: sa.serviceAccountId, ClientType: 'Confidential' });
    expect(list.text).not.toMatch(/f{64}|hash/i);

    expectProblem(
      await api(host, 'PUT', `${CLIENTS}/${sa.id}`, { cookie: admin.jar, body: { DisplayName: 'Hijack' } }),
      409,
      'OAuthClient.ManagedByServiceAccount',
    );
    expectProblem(await api(host, 'POST', `${CLIENTS}/${sa.id}/regenerate-secret`, { cookie: admin.jar }), 409, 'OAuthClient.ManagedByServiceAccount');
    const del = await api(host, 'DELETE', `${CLIENTS}/${sa.id}`, { cookie: admin.jar });
    expectProblem(del, 409, 'OAuthClient.ManagedByServiceAccount');
    expect(del.body.serviceAccountId).toBe(sa.serviceAccountId);
    const [row] = await realmSql<{ displayName: string; secretHash: string }>(slug, 'SELECT "displayName", "secretHash" FROM "OAuthClient" WHERE "id" = $1', [
      sa.id,
    ]);
    expect(row).toEqual({ displayName: 'Robot credential', secretHash: 'f'.repeat(64) });
  });

  describe('permissions', () => {
    let plain: CookieJar;
    let reader: CookieJar;
    let writer: CookieJar;
    let someId: string;

    beforeAll(async () => {
      someId = (await createClient(host, admin.jar, spaBody())).Id;
      plain = await signedIn(host, await makeUser(host, admin.jar));
      const r = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['oauth-client:read'], r.id);
      reader = await signedIn(host, r);
      const w = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['oauth-client:read', 'oauth-client:write'], w.id);
      writer = await signedIn(host, w);
    });

    const calls = (): [string, string, Record<string, unknown>?][] => [
      ['GET', CLIENTS],
      ['GET', `${CLIENTS}/${someId}`],
      ['POST', CLIENTS, spaBody()],
      ['PUT', `${CLIENTS}/${someId}`, { DisplayName: 'x' }],
      ['DELETE', `${CLIENTS}/${someId}`],
      ['POST', `${CLIENTS}/${someId}/regenerate-secret`],
    ];

    it('anonymous callers get 401 everywhere', async () => {
      for (const [method, path, body] of calls()) expectProblem(await api(host, method, path, { body }), 401);
    });

    it('a user without oauth-client permissions gets 403 everywhere', async () => {
      for (const [method, path, body] of calls()) expectProblem(await api(host, method, path, { cookie: plain, body }), 403, 'Auth.Forbidden');
    });

    it('oauth-client:read reads but cannot write', async () => {
      expect((await api(host, 'GET', CLIENTS, { cookie: reader })).status).toBe(200);
      expect((await api(host, 'GET', `${CLIENTS}/${someId}`, { cookie: reader })).status).toBe(200);
      for (const [method, path, body] of calls().filter(([m]) => m !== 'GET')) {
        expectProblem(await api(host, method, path, { cookie: reader, body }), 403, 'Auth.Forbidden');
      }
    });

    it('oauth-client:write creates, changes and deletes', async () => {
      const created = await api(host, 'POST', CLIENTS, { cookie: writer, body: spaBody() });
      expect(created.status, created.text).toBe(201);
      expect((await api(host, 'PUT', `${CLIENTS}/${created.body.Id}`, { cookie: writer, body: { DisplayName: 'By writer' } })).status).toBe(200);
      expect((await api(host, 'DELETE', `${CLIENTS}/${created.body.Id}`, { cookie: writer })).status).toBe(204);
    });
  });
});

import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, bootstrapAdmin, createRealm, expectProblem, type CookieJar, type SignedIn } from '../support/harness';
import { grant, makeUser, MAIN_APP_ID, signedIn } from '../users/fixtures';
import { APIS, createClient, MANAGEMENT_API_ID, MANAGEMENT_AUDIENCE, MANAGEMENT_SCOPE_ID, SCOPES, scopeIdByName, spaBody, tag } from './fixtures';

// OAuth scopes and APIs (spec 4.7 "OAuth scopes", "OAuth APIs"; seeded data spec 2.4 and
// CONTRACT.md "Names"): CRUD, the built-in protections, the references between clients, scopes
// and APIs (409s naming the blockers), create-implicit-scope and the permission checks.

describe('OAuth scopes and APIs', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;

  beforeAll(async () => {
    ({ host, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
  });

  it('a new realm has the six default scopes, gatehouse.management, gatehouse.passkeys, the invite scopes and the Management API, all built in', async () => {
    const scopes = await api(host, 'GET', `${SCOPES}?pageSize=200`, { cookie: admin.jar });
    expect(scopes.status, scopes.text).toBe(200);
    const builtIn = scopes.body.items
      .filter((s: { IsBuiltIn: boolean }) => s.IsBuiltIn)
      .map((s: { Name: string }) => s.Name)
      .sort();
    expect(builtIn).toEqual([
      'email',
      'gatehouse.management',
      'gatehouse.passkeys',
      'invite:read',
      'invite:write',
      'offline_access',
      'openid',
      'permissions',
      'profile',
      'roles',
    ]);
    const management = await api(host, 'GET', `${SCOPES}/${MANAGEMENT_SCOPE_ID}`, { cookie: admin.jar });
    expect(management.body).toMatchObject({ Name: 'gatehouse.management', Resources: [MANAGEMENT_AUDIENCE], IsBuiltIn: true });

    const apis = await api(host, 'GET', APIS, { cookie: admin.jar });
    expect(apis.status, apis.text).toBe(200);
    expect(apis.body.items).toEqual([
      expect.objectContaining({ Id: MANAGEMENT_API_ID, Name: 'Gatehouse Management API', Audience: MANAGEMENT_AUDIENCE, IsBuiltIn: true }),
    ]);
    expect(apis.body.totalCount).toBe(1);
  });

  describe('APIs', () => {
    it('create: 201 with the resource; name and audience are unique', async () => {
      const t = tag();
      const res = await api(host, 'POST', APIS, {
        cookie: admin.jar,
        body: { Name: `Orders ${t}`, Audience: `https://orders-${t}.example.com`, DisplayName: 'Orders', AppId: MAIN_APP_ID },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({
        Name: `Orders ${t}`,
        Audience: `https://orders-${t}.example.com`,
        DisplayName: 'Orders',
        AppId: MAIN_APP_ID,
        IsBuiltIn: false,
      });
      expect(res.body.Id).toMatch(/^[0-9a-f-]{36}$/);
      expectProblem(
        await api(host, 'POST', APIS, { cookie: admin.jar, body: { Name: `ORDERS ${t}`, Audience: `urn:orders:${t}` } }),
        409,
        'OAuthApi.NameTaken',
      );
      expectProblem(
        await api(host, 'POST', APIS, { cookie: admin.jar, body: { Name: `Other ${t}`, Audience: `https://orders-${t}.example.com` } }),
        409,
        'OAuthApi.AudienceTaken',
      );
      expectProblem(
        await api(host, 'POST', APIS, { cookie: admin.jar, body: { Name: `Mgmt ${t}`, Audience: MANAGEMENT_AUDIENCE } }),
        409,
        'OAuthApi.AudienceTaken',
      );
    });

    it.each<[Record<string, unknown>, string]>([
      [{ Audience: 'orders-api' }, 'Audience'],
      [{ Audience: 'https://api.example.com/#v1' }, 'Audience'],
      [{ Audience: 'urn:x' }, 'Audience'],
      [{ Audience: undefined }, 'Audience'],
      [{ Name: '' }, 'Name'],
      [{ AppId: randomUUID() }, 'AppId'],
    ])('refuses %j with 400 Validation.Failed', async (extra, field) => {
      const res = await api(host, 'POST', APIS, { cookie: admin.jar, body: { Name: `Api ${tag()}`, Audience: `urn:api:${tag()}`, ...extra } });
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain(field);
    });

    it('PUT is a merge-patch; the audience never changes', async () => {
      const t = tag();
      const created = (
        await api(host, 'POST', APIS, { cookie: admin.jar, body: { Name: `Billing ${t}`, Audience: `urn:billing:${t}`, Description: 'Invoices' } })
      ).body;
      const put = (body: Record<string, unknown>) => api(host, 'PUT', `${APIS}/${created.Id}`, { cookie: admin.jar, body });
      const renamed = await put({ Name: `Billing v2 ${t}`, Audience: null });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body).toMatchObject({ Name: `Billing v2 ${t}`, Audience: `urn:billing:${t}`, Description: 'Invoices' });
      expect((await put({ Description: null, Name: '' })).body).toEqual(expect.not.objectContaining({ Description: expect.anything() }));
      expect((await put({ Audience: `urn:billing:${t}`, DisplayName: 'Billing' })).body.DisplayName).toBe('Billing');
      const moved = await put({ Audience: `urn:elsewhere:${t}` });
      expectProblem(moved, 400, 'Validation.Failed');
      expect(Object.keys(moved.body.errors)).toEqual(['Audience']);
      expectProblem(await put({ Name: 'gatehouse management api' }), 409, 'OAuthApi.NameTaken');
      expectProblem(await api(host, 'PUT', `${APIS}/${randomUUID()}`, { cookie: admin.jar, body: {} }), 404, 'OAuthApi.NotFound');
    });

    it('the built-in Management API can be reworded but not moved or deleted', async () => {
      expect((await api(host, 'PUT', `${APIS}/${MANAGEMENT_API_ID}`, { cookie: admin.jar, body: { Description: 'Ours' } })).body.Description).toBe('Ours');
      expectProblem(
        await api(host, 'PUT', `${APIS}/${MANAGEMENT_API_ID}`, { cookie: admin.jar, body: { Audience: 'urn:gatehouse:other' } }),
        400,
        'Validation.Failed',
      );
      expectProblem(await api(host, 'DELETE', `${APIS}/${MANAGEMENT_API_ID}`, { cookie: admin.jar }), 409, 'OAuthApi.BuiltIn');
      expect((await api(host, 'GET', `${APIS}/${MANAGEMENT_API_ID}`, { cookie: admin.jar })).body.Audience).toBe(MANAGEMENT_AUDIENCE);
    });

    it('create-implicit-scope: a scope named after the audience granting it; 409 the second time', async () => {
      const t = tag();
      const created = (
        await api(host, 'POST', APIS, { cookie: admin.jar, body: { Name: `Stock ${t}`, Audience: `https://stock-${t}.example.com/api`, DisplayName: 'Stock' } })
      ).body;
      const res = await api(host, 'POST', `${APIS}/${created.Id}/create-implicit-scope`, { cookie: admin.jar });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ Name: created.Audience, DisplayName: 'Stock', Resources: [created.Audience], IsBuiltIn: false });
      expect((await api(host, 'GET', `${SCOPES}/${res.body.Id}`, { cookie: admin.jar })).body.Name).toBe(created.Audience);
      expectProblem(await api(host, 'POST', `${APIS}/${created.Id}/create-implicit-scope`, { cookie: admin.jar }), 409, 'OAuthScope.NameTaken');
      expectProblem(await api(host, 'POST', `${APIS}/${randomUUID()}/create-implicit-scope`, { cookie: admin.jar }), 404, 'OAuthApi.NotFound');
    });

    it('delete: an API a scope grants is 409 naming the scopes; once free, 204', async () => {
      const t = tag();
      const created = (await api(host, 'POST', APIS, { cookie: admin.jar, body: { Name: `Temp ${t}`, Audience: `urn:temp:${t}` } })).body;
      const scope = (await api(host, 'POST', SCOPES, { cookie: admin.jar, body: { Name: `temp.${t}`, Resources: [created.Audience] } })).body;
      const blocked = await api(host, 'DELETE', `${APIS}/${created.Id}`, { cookie: admin.jar });
      expectProblem(blocked, 409, 'OAuthApi.InUse');
      expect(blocked.body.scopes).toEqual([{ Id: scope.Id, Name: `temp.${t}` }]);
      expect((await api(host, 'PUT', `${SCOPES}/${scope.Id}`, { cookie: admin.jar, body: { Resources: [] } })).body.Resources).toEqual([]);
      expect((await api(host, 'DELETE', `${APIS}/${created.Id}`, { cookie: admin.jar })).status).toBe(204);
      expectProblem(await api(host, 'GET', `${APIS}/${created.Id}`, { cookie: admin.jar }), 404, 'OAuthApi.NotFound');
    });

    it('lists with search and paging', async () => {
      const res = await api(host, 'GET', `${APIS}?search=MANAGEMENT`, { cookie: admin.jar });
      expect(res.body.items.map((a: { Id: string }) => a.Id)).toEqual([MANAGEMENT_API_ID]);
      const page = await api(host, 'GET', `${APIS}?pageSize=1&page=2&sortBy=createdAt`, { cookie: admin.jar });
      expect(page.body).toMatchObject({ page: 2, pageSize: 1 });
      expect(page.body.items).toHaveLength(1);
    });
  });

  describe('scopes', () => {
    let audience: string;

    beforeAll(async () => {
      audience = `https://inventory-${tag()}.example.com`;
      const res = await api(host, 'POST', APIS, { cookie: admin.jar, body: { Name: `Inventory ${tag()}`, Audience: audience } });
      expect(res.status, res.text).toBe(201);
    });

    it('create: 201; the name is unique; Resources must be audiences of existing APIs', async () => {
      const name = `inventory.read.${tag()}`;
      const res = await api(host, 'POST', SCOPES, {
        cookie: admin.jar,
        body: { Name: name, DisplayName: 'Read inventory', Description: 'See stock levels', Resources: [audience] },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ Name: name, DisplayName: 'Read inventory', Description: 'See stock levels', Resources: [audience], IsBuiltIn: false });
      expectProblem(await api(host, 'POST', SCOPES, { cookie: admin.jar, body: { Name: name } }), 409, 'OAuthScope.NameTaken');
      const unknown = await api(host, 'POST', SCOPES, { cookie: admin.jar, body: { Name: `x.${tag()}`, Resources: [audience, 'urn:nobody:here'] } });
      expectProblem(unknown, 400, 'Validation.Failed');
      expect(unknown.body.errors.Resources[0]).toContain('urn:nobody:here');
      expect(unknown.body.errors.Resources[0]).not.toContain(audience);
    });

    it.each(['has space', 'quote"d', 'back\\slash', '', 'tab\there'])('refuses the name %j (RFC 6749 scope-token)', async (name) => {
      const res = await api(host, 'POST', SCOPES, { cookie: admin.jar, body: { Name: name } });
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors)).toContain('Name');
    });

    it('accepts every scope-token character', async () => {
      const name = `a!#$%&'()*+,-./:;<=>?@[]^_\`{|}~${tag()}`;
      const res = await api(host, 'POST', SCOPES, { cookie: admin.jar, body: { Name: name } });
      expect(res.status, res.text).toBe(201);
      expect(res.body.Name).toBe(name);
    });

    it('PUT is a merge-patch: rename, reword, clear, replace resources', async () => {
      const created = (await api(host, 'POST', SCOPES, { cookie: admin.jar, body: { Name: `s.${tag()}`, DisplayName: 'S', Description: 'About S' } })).body;
      const put = (body: Record<string, unknown>) => api(host, 'PUT', `${SCOPES}/${created.Id}`, { cookie: admin.jar, body });
      const newName = `renamed.${tag()}`;
      const res = await put({ Name: newName, Resources: [audience] });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ Name: newName, DisplayName: 'S', Description: 'About S', Resources: [audience] });
      expect((await put({ Name: null, Description: '' })).body).toEqual(expect.not.objectContaining({ Description: expect.anything() }));
      expect((await put({ Name: '' })).body.Name).toBe(newName);
      expectProblem(await put({ Name: 'openid' }), 409, 'OAuthScope.NameTaken');
      expectProblem(await put({ Resources: ['urn:nobody:here'] }), 400, 'Validation.Failed');
      expectProblem(await api(host, 'PUT', `${SCOPES}/${randomUUID()}`, { cookie: admin.jar, body: {} }), 404, 'OAuthScope.NotFound');
    });

    it('built-in scopes: wording may change; name and resources may not; they cannot be deleted', async () => {
      const openid = await scopeIdByName(host, admin.jar, 'openid');
      expect((await api(host, 'PUT', `${SCOPES}/${openid}`, { cookie: admin.jar, body: { DisplayName: 'Sign-in', Name: 'openid' } })).body).toMatchObject({
        Name: 'openid',
        DisplayName: 'Sign-in',
      });
      expectProblem(await api(host, 'PUT', `${SCOPES}/${openid}`, { cookie: admin.jar, body: { Name: 'oidc' } }), 409, 'OAuthScope.BuiltIn');
      expectProblem(await api(host, 'PUT', `${SCOPES}/${openid}`, { cookie: admin.jar, body: { Resources: [audience] } }), 409, 'OAuthScope.BuiltIn');
      expectProblem(await api(host, 'PUT', `${SCOPES}/${MANAGEMENT_SCOPE_ID}`, { cookie: admin.jar, body: { Resources: [] } }), 409, 'OAuthScope.BuiltIn');
      expect((await api(host, 'PUT', `${SCOPES}/${MANAGEMENT_SCOPE_ID}`, { cookie: admin.jar, body: { Resources: [MANAGEMENT_AUDIENCE] } })).status).toBe(200);
      expectProblem(await api(host, 'DELETE', `${SCOPES}/${openid}`, { cookie: admin.jar }), 409, 'OAuthScope.BuiltIn');
      expectProblem(await api(host, 'DELETE', `${SCOPES}/${MANAGEMENT_SCOPE_ID}`, { cookie: admin.jar }), 409, 'OAuthScope.BuiltIn');
    });

    it('a scope clients list cannot be deleted or renamed (409 naming them); once free, 204', async () => {
      const name = `orders.${tag()}`;
      const scope = (await api(host, 'POST', SCOPES, { cookie: admin.jar, body: { Name: name } })).body;
      const a = await createClient(host, admin.jar, spaBody({ Scopes: ['openid', name] }));
      const b = await createClient(host, admin.jar, spaBody({ Scopes: [name] }));
      // A client listing a scope whose name merely contains this one is no blocker.
      await api(host, 'POST', SCOPES, { cookie: admin.jar, body: { Name: `${name}.write` } });
      await createClient(host, admin.jar, spaBody({ Scopes: [`${name}.write`] }));

      const blocked = await api(host, 'DELETE', `${SCOPES}/${scope.Id}`, { cookie: admin.jar });
      expectProblem(blocked, 409, 'OAuthScope.InUse');
      expect(blocked.body.clients.map((c: { Id: string }) => c.Id).sort()).toEqual([a.Id, b.Id].sort());
      expect(blocked.body.detail).toContain(String(a.ClientId));
      expectProblem(await api(host, 'PUT', `${SCOPES}/${scope.Id}`, { cookie: admin.jar, body: { Name: `${name}-v2` } }), 409, 'OAuthScope.InUse');

      await api(host, 'PUT', `/api/admin/oauth/clients/${a.Id}`, { cookie: admin.jar, body: { Scopes: ['openid'] } });
      await api(host, 'DELETE', `/api/admin/oauth/clients/${b.Id}`, { cookie: admin.jar });
      expect((await api(host, 'DELETE', `${SCOPES}/${scope.Id}`, { cookie: admin.jar })).status).toBe(204);
      expectProblem(await api(host, 'GET', `${SCOPES}/${scope.Id}`, { cookie: admin.jar }), 404, 'OAuthScope.NotFound');
    });

    it('lists with search and paging', async () => {
      const res = await api(host, 'GET', `${SCOPES}?search=offline`, { cookie: admin.jar });
      expect(res.body.items.map((s: { Name: string }) => s.Name)).toEqual(['offline_access']);
      const page = await api(host, 'GET', `${SCOPES}?pageSize=3&sortBy=name&sortDescending=true`, { cookie: admin.jar });
      expect(page.body.items).toHaveLength(3);
      const names = page.body.items.map((s: { Name: string }) => s.Name);
      expect([...names].sort().reverse()).toEqual(names);
    });
  });

  describe('permissions', () => {
    let plain: CookieJar;
    let scopeWriter: CookieJar;
    let apiReader: CookieJar;

    beforeAll(async () => {
      plain = await signedIn(host, await makeUser(host, admin.jar));
      const s = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['oauth-scope:write'], s.id);
      scopeWriter = await signedIn(host, s);
      const r = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['oauth-api:read', 'oauth-scope:read'], r.id);
      apiReader = await signedIn(host, r);
    });

    const calls = (): [string, string, Record<string, unknown>?][] => [
      ['GET', SCOPES],
      ['GET', `${SCOPES}/${MANAGEMENT_SCOPE_ID}`],
      ['POST', SCOPES, { Name: `p.${tag()}` }],
      ['PUT', `${SCOPES}/${MANAGEMENT_SCOPE_ID}`, {}],
      ['DELETE', `${SCOPES}/${MANAGEMENT_SCOPE_ID}`],
      ['GET', APIS],
      ['GET', `${APIS}/${MANAGEMENT_API_ID}`],
      ['POST', APIS, { Name: `p ${tag()}`, Audience: `urn:p:${tag()}` }],
      ['PUT', `${APIS}/${MANAGEMENT_API_ID}`, {}],
      ['DELETE', `${APIS}/${MANAGEMENT_API_ID}`],
      ['POST', `${APIS}/${MANAGEMENT_API_ID}/create-implicit-scope`],
    ];

    it('anonymous callers get 401 and users without the permissions 403, everywhere', async () => {
      for (const [method, path, body] of calls()) {
        expectProblem(await api(host, method, path, { body }), 401);
        expectProblem(await api(host, method, path, { cookie: plain, body }), 403, 'Auth.Forbidden');
      }
    });

    it('readers read but cannot write', async () => {
      for (const [method, path, body] of calls()) {
        const res = await api(host, method, path, { cookie: apiReader, body });
        if (method === 'GET') expect(res.status, `${method} ${path}`).toBe(200);
        else expectProblem(res, 403, 'Auth.Forbidden');
      }
    });

    it('create-implicit-scope needs oauth-scope:write, not oauth-api:write', async () => {
      const t = tag();
      const created = (await api(host, 'POST', APIS, { cookie: admin.jar, body: { Name: `Perm ${t}`, Audience: `urn:perm:${t}` } })).body;
      expectProblem(await api(host, 'POST', APIS, { cookie: scopeWriter, body: { Name: `No ${t}`, Audience: `urn:no:${t}` } }), 403, 'Auth.Forbidden');
      const res = await api(host, 'POST', `${APIS}/${created.Id}/create-implicit-scope`, { cookie: scopeWriter });
      expect(res.status, res.text).toBe(201);
      expect(res.body.Name).toBe(`urn:perm:${t}`);
    });
  });
});

import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeAccount, makeCredential } from '../service-accounts/fixtures';
import { api, bootstrapAdmin, createRealm, expectProblem, type SignedIn } from '../support/harness';
import { createClient, discover } from '../support/oauth';
import { grant, MAIN_APP_ID } from '../users/fixtures';
import { realmSql } from '../support/realm-sql';

// Bearer access to the API (spec 5.2, issue 4.6): client-credentials tokens of a service account
// meet the same live permission checks as a cookie; invite-code routes also admit the App-bound
// invite scopes; anything else is refused with RFC 6750 answers.
describe('Management API bearer tokens', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;

  async function tokenFor(clientId: string, secret: string, scope: string): Promise<string> {
    const config = await discover(host, clientId, secret);
    return (await oidc.clientCredentialsGrant(config, scope ? { scope } : {})).access_token;
  }

  const newClientBody = () => ({
    DisplayName: 'Made by a robot',
    ClientType: 'Public',
    ConsentType: 'Explicit',
    RedirectUris: ['https://app.example.test/cb'],
    GrantTypes: ['authorization_code'],
    Scopes: ['openid'],
  });

  beforeAll(async () => {
    ({ host, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
  });

  it('a service account with oauth-client:write creates a client with its token', async () => {
    const { groupId } = await grant(host, admin.jar, ['oauth-client:write', 'oauth-client:read']);
    const account = await makeAccount(host, admin.jar, { GroupIds: [groupId] });
    const cred = await makeCredential(host, admin.jar, account.id, { Scopes: ['gatehouse.management'] });
    const token = await tokenFor(cred.clientId, cred.secret, 'gatehouse.management');
    expect(token.split('.')).toHaveLength(3);
    const res = await api(host, 'POST', '/api/admin/oauth/clients', { headers: { authorization: `Bearer ${token}` }, body: newClientBody() });
    expect(res.status, res.text).toBe(201);

    // Cookie-only routes do not accept it.
    const list = await api(host, 'GET', '/api/admin/oauth/clients', { headers: { authorization: `Bearer ${token}` } });
    expectProblem(list, 401);

    // Deleting the credential ends the token at once, though it is a self-contained JWT.
    const del = await api(host, 'DELETE', `/api/service-account/${account.id}/credentials/${cred.id}`, { cookie: admin.jar });
    expect(del.status, del.text).toBe(204);
    const after = await api(host, 'POST', '/api/admin/oauth/clients', { headers: { authorization: `Bearer ${token}` }, body: newClientBody() });
    expectProblem(after, 401, 'Auth.InvalidToken');
    expect(after.headers['www-authenticate']).toContain('invalid_token');
  });

  it('without the permission the token is refused with 403', async () => {
    const account = await makeAccount(host, admin.jar);
    const cred = await makeCredential(host, admin.jar, account.id, { Scopes: ['gatehouse.management'] });
    const token = await tokenFor(cred.clientId, cred.secret, 'gatehouse.management');
    const res = await api(host, 'POST', '/api/admin/oauth/clients', { headers: { authorization: `Bearer ${token}` }, body: newClientBody() });
    expectProblem(res, 403, 'Auth.Forbidden');
  });

  it('a garbage, foreign or scope-less token is refused', async () => {
    const garbage = await api(host, 'POST', '/api/admin/oauth/clients', {
      headers: { authorization: 'Bearer not-a-token-at-all-0123456789' },
      body: newClientBody(),
    });
    expectProblem(garbage, 401, 'Auth.InvalidToken');

    // A token of another realm, signed by that realm's keys.
    const other = await createRealm();
    const otherAdmin = await bootstrapAdmin(other.slug);
    const { groupId } = await grant(other.host, otherAdmin.jar, ['realm:admin']);
    const account = await makeAccount(other.host, otherAdmin.jar, { GroupIds: [groupId] });
    const cred = await makeCredential(other.host, otherAdmin.jar, account.id, { Scopes: ['gatehouse.management'] });
    const foreign = (await oidc.clientCredentialsGrant(await discover(other.host, cred.clientId, cred.secret), { scope: 'gatehouse.management' })).access_token;
    const res = await api(host, 'POST', '/api/admin/oauth/clients', { headers: { authorization: `Bearer ${foreign}` }, body: newClientBody() });
    expectProblem(res, 401, 'Auth.InvalidToken');

    // A client-credentials token for no API (opaque, no audience).
    const plain = await createClient(host, admin.jar, {
      DisplayName: 'cc',
      ClientType: 'Confidential',
      ConsentType: 'Implicit',
      RedirectUris: [],
      GrantTypes: ['client_credentials'],
      Scopes: ['openid'],
    });
    const noApi = await tokenFor(plain.ClientId, plain.ClientSecret!, '');
    const res2 = await api(host, 'POST', '/api/admin/oauth/clients', { headers: { authorization: `Bearer ${noApi}` }, body: newClientBody() });
    expectProblem(res2, 403, 'Auth.InsufficientScope');
  });

  it("invite scopes reach only the codes of the client's own App", async () => {
    const shop = crypto.randomUUID();
    await realmSql(slug, 'INSERT INTO "App" ("id", "slug", "displayName", "createdAt") SELECT $1, $2, $3, "createdAt" FROM "App" WHERE "id" = $4', [
      shop,
      `shop-${shop.slice(0, 6)}`,
      'Shop',
      MAIN_APP_ID,
    ]);
    const client = await createClient(host, admin.jar, {
      DisplayName: 'shop backend',
      ClientType: 'Confidential',
      ConsentType: 'Implicit',
      RedirectUris: [],
      GrantTypes: ['client_credentials'],
      Scopes: ['invite:write'],
      AppId: shop,
    });
    const token = await tokenFor(client.ClientId, client.ClientSecret!, 'invite:write');
    const auth = { authorization: `Bearer ${token}` };

    const minted = await api(host, 'POST', `/api/app/${shop}/invite-codes`, { headers: auth, body: { Label: 'by token' } });
    expect(minted.status, minted.text).toBe(201);
    const listed = await api(host, 'GET', `/api/app/${shop}/invite-codes`, { headers: auth });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.items.map((c: { Id: string }) => c.Id)).toContain(minted.body.Id);
    const revoked = await api(host, 'DELETE', `/api/app/${shop}/invite-codes/${minted.body.Id}`, { headers: auth });
    expect(revoked.status, revoked.text).toBe(204);

    expectProblem(await api(host, 'POST', `/api/app/${MAIN_APP_ID}/invite-codes`, { headers: auth, body: {} }), 403, 'Auth.Forbidden');
    expectProblem(await api(host, 'GET', '/api/admin/invite-codes', { headers: auth }), 403);
  });
});

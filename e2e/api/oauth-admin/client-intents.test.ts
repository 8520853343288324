import * as oidc from 'openid-client';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeAccount } from '../service-accounts/fixtures';
import { api, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';
import { discover } from '../support/oauth';
import { realmSql } from '../support/realm-sql';
import { grant, makeUser, signedIn } from '../users/fixtures';
import { CLIENTS } from './fixtures';

// POST /api/admin/oauth/clients with a service-account intent (spec 4.7 "OAuth clients"):
// ServiceAccountId links the new client to an existing account, NewServiceAccount { Name,
// Description? } creates one with it. Either needs service-account:write besides
// oauth-client:write, and every permission the account's groups confer (no escalation); the client
// is then the account's credential: Confidential, exactly client_credentials, managed through the
// account. All in one transaction. Also: scopes default to openid when none are given.

const robot = (extra: Record<string, unknown> = {}) => ({
  ClientId: `robot-${randomBytes(4).toString('hex')}`,
  DisplayName: 'Robot',
  ClientType: 'Confidential',
  GrantTypes: ['client_credentials'],
  Scopes: ['gatehouse.management'],
  ...extra,
});

describe('service-account intents on client create', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;

  beforeAll(async () => {
    ({ host, slug, admin } = await realmWithAdmin());
  });

  it('links a client to an existing account: its credential, acting with the account’s permissions, managed there', async () => {
    const { groupId } = await grant(host, admin.jar, ['user:read']);
    const account = await makeAccount(host, admin.jar, { GroupIds: [groupId] });
    const res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: robot({ ServiceAccountId: account.id, DisplayName: 'Payroll sync' }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ ServiceAccountId: account.id, ClientType: 'Confidential', GrantTypes: ['client_credentials'], ConsentType: 'Implicit' });
    const { ClientId, ClientSecret, Id } = res.body;

    const credentials = await api(host, 'GET', `/api/service-account/${account.id}/credentials`, { cookie: admin.jar });
    expect(credentials.body.items ?? credentials.body).toEqual(expect.arrayContaining([expect.objectContaining({ ClientId, DisplayName: 'Payroll sync' })]));

    // Its token acts as the account, which may not create clients.
    const config = await discover(host, ClientId, ClientSecret);
    const token = (await oidc.clientCredentialsGrant(config, { scope: 'gatehouse.management' })).access_token;
    const created = await api(host, 'POST', CLIENTS, { headers: { authorization: `Bearer ${token}` }, body: robot({ Scopes: [] }) });
    expectProblem(created, 403, 'Auth.Forbidden');

    // It cannot be changed as a plain client.
    expectProblem(await api(host, 'PUT', `${CLIENTS}/${Id}`, { cookie: admin.jar, body: { DisplayName: 'x' } }), 409, 'OAuthClient.ManagedByServiceAccount');
  });

  it('creates the account with its first client', async () => {
    const name = `svc-${randomBytes(4).toString('hex')}`;
    const res = await api(host, 'POST', CLIENTS, {
      cookie: admin.jar,
      body: robot({ Scopes: [], NewServiceAccount: { Name: name, Description: 'Nightly export' } }),
    });
    expect(res.status, res.text).toBe(201);
    const account = await api(host, 'GET', `/api/service-account/${res.body.ServiceAccountId}`, { cookie: admin.jar });
    expect(account.body).toMatchObject({ Name: name, Description: 'Nightly export', GroupIds: [], CredentialCount: 1, IsActive: true });
  });

  it('leaves no new account behind when the client fails (one transaction)', async () => {
    const taken = robot({ Scopes: [] });
    expect((await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: taken })).status).toBe(201);
    const name = `svc-${randomBytes(4).toString('hex')}`;
    const again = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: { ...taken, NewServiceAccount: { Name: name } } });
    expectProblem(again, 409, 'OAuthClient.ClientIdTaken');
    expect(await realmSql(slug, 'SELECT "id" FROM "ServiceAccount" WHERE "nameNormalized" = $1', [name])).toEqual([]);

    // And an account name already used is a 409 that leaves no client.
    const existing = await makeAccount(host, admin.jar);
    const clash = robot({ Scopes: [], NewServiceAccount: { Name: existing.name.toUpperCase() } });
    const res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: clash });
    expectProblem(res, 409, 'ServiceAccount.NameTaken');
    expect(await realmSql(slug, 'SELECT "id" FROM "OAuthClient" WHERE "clientId" = $1', [clash.ClientId])).toEqual([]);
  });

  it('refuses a client that does not fit a credential, or both intents at once (400)', async () => {
    const account = await makeAccount(host, admin.jar);
    let res = await api(host, 'POST', CLIENTS, {
      cookie: admin.jar,
      body: robot({ ServiceAccountId: account.id, GrantTypes: ['client_credentials', 'refresh_token'] }),
    });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors.GrantTypes).toEqual(["A service account's client has exactly one grant: client_credentials."]);
    res = await api(host, 'POST', CLIENTS, {
      cookie: admin.jar,
      body: robot({ ServiceAccountId: account.id, ClientType: 'Public', GrantTypes: ['client_credentials'] }),
    });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors.ClientType).toEqual(["A service account's client must be Confidential."]);
    res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: robot({ ServiceAccountId: account.id, NewServiceAccount: { Name: 'x-both' } }) });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors.NewServiceAccount).toBeDefined();
    res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: robot({ ServiceAccountId: '00000000-0000-4000-8000-00000000f00d' }) });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors.ServiceAccountId).toEqual(['No service account has this id.']);
    res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: robot({ NewServiceAccount: { Name: '' } }) });
    expectProblem(res, 400, 'Validation.Failed');
    const [{ n }] = await realmSql<{ n: number | string }>(slug, 'SELECT COUNT(*) AS "n" FROM "ServiceAccountCredential" WHERE "serviceAccountId" = $1', [
      account.id,
    ]);
    expect(Number(n)).toBe(0);
  });

  it('needs service-account:write (403), and may not hand out permissions the actor does not hold (403)', async () => {
    const { groupId } = await grant(host, admin.jar, ['user:write', 'session:read']);
    const strong = await makeAccount(host, admin.jar, { GroupIds: [groupId] });
    const weak = await makeAccount(host, admin.jar);

    const user = await makeUser(host, admin.jar);
    await grant(host, admin.jar, ['oauth-client:write', 'user:write'], user.id);
    const jar = await signedIn(host, user);
    let res = await api(host, 'POST', CLIENTS, { cookie: jar, body: robot({ Scopes: [], ServiceAccountId: weak.id }) });
    expectProblem(res, 403, 'Auth.Forbidden');
    expect(res.body.detail).toContain('service-account:write');
    res = await api(host, 'POST', CLIENTS, { cookie: jar, body: robot({ Scopes: [], NewServiceAccount: { Name: `svc-${randomBytes(3).toString('hex')}` } }) });
    expectProblem(res, 403, 'Auth.Forbidden');

    await grant(host, admin.jar, ['service-account:write'], user.id);
    // The strong account confers session:read, which the actor lacks.
    const body = robot({ Scopes: [], ServiceAccountId: strong.id });
    res = await api(host, 'POST', CLIENTS, { cookie: jar, body });
    expectProblem(res, 403, 'Auth.Forbidden');
    expect(res.body.detail).toContain('session:read');
    expect(await realmSql(slug, 'SELECT "id" FROM "OAuthClient" WHERE "clientId" = $1', [body.ClientId])).toEqual([]);

    // An account that confers nothing more is fine.
    res = await api(host, 'POST', CLIENTS, { cookie: jar, body: robot({ Scopes: [], ServiceAccountId: weak.id }) });
    expect(res.status, res.text).toBe(201);
  });
});

describe('default scopes', () => {
  let host: string;
  let admin: SignedIn;
  beforeAll(async () => {
    ({ host, admin } = await realmWithAdmin());
  });

  it('a client given no scopes signs people in with openid; one that only acts as itself gets none; [] stays empty', async () => {
    const web = { DisplayName: 'Web', ClientType: 'Public', GrantTypes: ['authorization_code'], RedirectUris: ['https://web.example/cb'] };
    let res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: web });
    expect(res.status, res.text).toBe(201);
    expect(res.body.Scopes).toEqual(['openid']);
    res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: { ...web, Scopes: null } });
    expect(res.body.Scopes).toEqual(['openid']);
    res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: { ...web, Scopes: [] } });
    expect(res.body.Scopes).toEqual([]);
    res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: { DisplayName: 'Job', ClientType: 'Confidential', GrantTypes: ['client_credentials'] } });
    expect(res.body.Scopes).toEqual([]);
  });
});

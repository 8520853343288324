import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { grant, makeUser, signedIn } from '../users/fixtures';
import { api, bootstrapAdmin, createRealm, expectProblem, type CookieJar, type SignedIn } from '../support/harness';
import { realmSql } from '../support/realm-sql';
import { clientRow, engineTokenCount, makeAccount, makeCredential, storeEngineToken } from './fixtures';

// Service-account credentials (spec 4.7 "Credentials", 2.5; CONTRACT.md: DisplayName?, Scopes?,
// ExpiresAt?; the answer carries ClientId and, once, ClientSecret): each is a confidential OAuth
// client with the one grant client_credentials, storing only the secret's SHA-256; rotate replaces
// the secret; deleting a credential or its account removes the client and its stored tokens.
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const FIELDS = ['Id', 'ServiceAccountId', 'ClientId', 'DisplayName', 'Scopes', 'ExpiresAt', 'IsExpired', 'CreatedAt', 'RotatedAt', 'LastUsedAt'];

describe('service-account credentials', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  let account: { id: string; name: string };
  let base: string;

  beforeAll(async () => {
    ({ host, slug } = await createRealm());
    admin = await bootstrapAdmin(slug);
    account = await makeAccount(host, admin.jar);
    base = `/api/service-account/${account.id}/credentials`;
  });

  it('create: 201 with ClientId and ClientSecret once; only the SHA-256 is stored', async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const res = await api(host, 'POST', base, { cookie: admin.jar, body: { displayName: 'CI pipeline', scopes: ['openid', 'profile'], expiresAt } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      ServiceAccountId: account.id,
      DisplayName: 'CI pipeline',
      Scopes: ['openid', 'profile'],
      ExpiresAt: expiresAt,
      IsExpired: false,
    });
    expect(res.body.ClientId).toMatch(/^sa-[A-Za-z0-9_-]{22}$/);
    expect(res.body.ClientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.text).not.toMatch(/hash/i);
    expect(Object.keys(res.body).every((k) => [...FIELDS, 'ClientSecret'].includes(k))).toBe(true);

    const row = (await clientRow(slug, res.body.ClientId))!;
    expect(row).toMatchObject({ clientType: 'Confidential', serviceAccountId: account.id, secretHash: sha256(res.body.ClientSecret) });
    expect(JSON.parse(row.grantTypes)).toEqual(['client_credentials']);
    expect(JSON.parse(row.scopes)).toEqual(['openid', 'profile']);
    const everything = JSON.stringify([
      ...(await realmSql(slug, 'SELECT * FROM "OAuthClient"')),
      ...(await realmSql(slug, 'SELECT * FROM "ServiceAccountCredential"')),
    ]);
    expect(everything).not.toContain(res.body.ClientSecret);
    const [cred] = await realmSql<{ oauthClientId: string }>(slug, 'SELECT "oauthClientId" FROM "ServiceAccountCredential" WHERE "id" = $1', [res.body.Id]);
    expect(cred.oauthClientId).toBe(row.id);

    // The secret is never shown again.
    const list = await api(host, 'GET', base, { cookie: admin.jar });
    expect(list.status, list.text).toBe(200);
    expect(list.text).not.toContain(res.body.ClientSecret);
    expect(list.text).not.toMatch(/ClientSecret|hash/i);
    const listed = list.body.items.find((c: { Id: string }) => c.Id === res.body.Id);
    expect(listed).toEqual(Object.fromEntries(Object.entries(res.body).filter(([k]) => k !== 'ClientSecret')));
    expect((await api(host, 'GET', `/api/service-account/${account.id}`, { cookie: admin.jar })).body.CredentialCount).toBeGreaterThanOrEqual(1);
  });

  it('defaults: DisplayName is the account name, no scopes, no expiry', async () => {
    const res = await api(host, 'POST', base, { cookie: admin.jar, body: {} });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ DisplayName: account.name, Scopes: [], IsExpired: false });
    expect(res.body.ExpiresAt).toBeUndefined();
    expect(res.body.RotatedAt).toBeUndefined();
  });

  it('unknown scopes are 400 Validation.Failed naming each; nothing is created', async () => {
    const before = (await api(host, 'GET', base, { cookie: admin.jar })).body.totalCount;
    const res = await api(host, 'POST', base, { cookie: admin.jar, body: { Scopes: ['openid', 'no.such.scope', 'nor-this'] } });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors.Scopes.join(' ')).toContain('no.such.scope');
    expect(res.body.errors.Scopes.join(' ')).toContain('nor-this');
    expect(res.body.errors.Scopes.join(' ')).not.toContain('openid');
    expect((await api(host, 'GET', base, { cookie: admin.jar })).body.totalCount).toBe(before);
  });

  it.each([{ ExpiresAt: new Date(Date.now() - 60_000).toISOString() }, { ExpiresAt: 'next week' }, { Scopes: 'openid' }, { DisplayName: 'x'.repeat(201) }])(
    'refuses %j with 400 Validation.Failed',
    async (body) => {
      expectProblem(await api(host, 'POST', base, { cookie: admin.jar, body }), 400, 'Validation.Failed');
    },
  );

  it('an unknown account or credential, or another account’s credential, is 404', async () => {
    expectProblem(await api(host, 'GET', `/api/service-account/${randomUUID()}/credentials`, { cookie: admin.jar }), 404, 'ServiceAccount.NotFound');
    expectProblem(await api(host, 'POST', `/api/service-account/${randomUUID()}/credentials`, { cookie: admin.jar, body: {} }), 404, 'ServiceAccount.NotFound');
    expectProblem(await api(host, 'PUT', `${base}/${randomUUID()}`, { cookie: admin.jar, body: {} }), 404, 'ServiceAccountCredential.NotFound');
    expectProblem(await api(host, 'POST', `${base}/${randomUUID()}/rotate`, { cookie: admin.jar }), 404, 'ServiceAccountCredential.NotFound');
    expectProblem(await api(host, 'DELETE', `${base}/${randomUUID()}`, { cookie: admin.jar }), 404, 'ServiceAccountCredential.NotFound');
    const other = await makeAccount(host, admin.jar);
    const foreign = await makeCredential(host, admin.jar, other.id);
    expectProblem(await api(host, 'PUT', `${base}/${foreign.id}`, { cookie: admin.jar, body: { DisplayName: 'x' } }), 404, 'ServiceAccountCredential.NotFound');
    expectProblem(await api(host, 'POST', `${base}/${foreign.id}/rotate`, { cookie: admin.jar }), 404, 'ServiceAccountCredential.NotFound');
    expectProblem(await api(host, 'DELETE', `${base}/${foreign.id}`, { cookie: admin.jar }), 404, 'ServiceAccountCredential.NotFound');
  });

  it('update is merge-patch on DisplayName, Scopes and ExpiresAt; the client follows; the secret stays', async () => {
    const cred = await makeCredential(host, admin.jar, account.id, { DisplayName: 'first', Scopes: ['openid'] });
    const before = (await clientRow(slug, cred.clientId))!;
    const path = `${base}/${cred.id}`;
    let res = await api(host, 'PUT', path, { cookie: admin.jar, body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ DisplayName: 'first', Scopes: ['openid'] });
    expect(res.text).not.toMatch(/ClientSecret|hash/i);

    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    res = await api(host, 'PUT', path, { cookie: admin.jar, body: { DisplayName: 'second', Scopes: ['email', 'profile'], ExpiresAt: expiresAt } });
    expect(res.body).toMatchObject({ DisplayName: 'second', Scopes: ['email', 'profile'], ExpiresAt: expiresAt, ClientId: cred.clientId });
    const after = (await clientRow(slug, cred.clientId))!;
    expect(JSON.parse(after.scopes)).toEqual(['email', 'profile']);
    expect(after.secretHash).toBe(before.secretHash);

    res = await api(host, 'PUT', path, { cookie: admin.jar, body: { DisplayName: '', Scopes: [], ExpiresAt: null } });
    expect(res.body).toMatchObject({ DisplayName: account.name, Scopes: [] });
    expect(res.body.ExpiresAt).toBeUndefined();

    expectProblem(await api(host, 'PUT', path, { cookie: admin.jar, body: { Scopes: ['nope'] } }), 400, 'Validation.Failed');
    expectProblem(
      await api(host, 'PUT', path, { cookie: admin.jar, body: { ExpiresAt: new Date(Date.now() - 1000).toISOString() } }),
      400,
      'Validation.Failed',
    );
  });

  it('an expiry in the past shows as IsExpired', async () => {
    const cred = await makeCredential(host, admin.jar, account.id, { ExpiresAt: new Date(Date.now() + 60_000).toISOString() });
    await realmSql(slug, 'UPDATE "ServiceAccountCredential" SET "expiresAt" = "createdAt" WHERE "id" = $1', [cred.id]);
    const listed = (await api(host, 'GET', `${base}?pageSize=200`, { cookie: admin.jar })).body.items.find((c: { Id: string }) => c.Id === cred.id);
    expect(listed.IsExpired).toBe(true);
  });

  it('rotate: a new secret once, the old digest replaced, RotatedAt set, stored tokens revoked, same client id', async () => {
    const cred = await makeCredential(host, admin.jar, account.id);
    const token = await storeEngineToken(slug, cred.clientId);
    const unrelated = await makeCredential(host, admin.jar, account.id);
    await storeEngineToken(slug, unrelated.clientId);
    const res = await api(host, 'POST', `${base}/${cred.id}/rotate`, { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.body.ClientId).toBe(cred.clientId);
    expect(res.body.ClientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.ClientSecret).not.toBe(cred.secret);
    expect(typeof res.body.RotatedAt).toBe('string');
    const row = (await clientRow(slug, cred.clientId))!;
    expect(row.secretHash).toBe(sha256(res.body.ClientSecret));
    expect(row.secretHash).not.toBe(sha256(cred.secret));
    expect(await realmSql(slug, 'SELECT "id" FROM "OidcPayload" WHERE "id" = $1', [token])).toEqual([]);
    expect(await engineTokenCount(slug, unrelated.clientId)).toBe(1);
  });

  it('delete a credential: 204; its client and stored tokens go, the account stays', async () => {
    const cred = await makeCredential(host, admin.jar, account.id);
    await storeEngineToken(slug, cred.clientId);
    expect((await api(host, 'DELETE', `${base}/${cred.id}`, { cookie: admin.jar })).status).toBe(204);
    expect(await clientRow(slug, cred.clientId)).toBeUndefined();
    expect(await engineTokenCount(slug, cred.clientId)).toBe(0);
    expect(await realmSql(slug, 'SELECT "id" FROM "ServiceAccountCredential" WHERE "id" = $1', [cred.id])).toEqual([]);
    expect((await api(host, 'GET', `/api/service-account/${account.id}`, { cookie: admin.jar })).status).toBe(200);
    expectProblem(await api(host, 'DELETE', `${base}/${cred.id}`, { cookie: admin.jar }), 404, 'ServiceAccountCredential.NotFound');
  });

  it('deleting the account cascades: credentials, their clients and stored tokens are gone', async () => {
    const doomed = await makeAccount(host, admin.jar);
    const creds = [await makeCredential(host, admin.jar, doomed.id), await makeCredential(host, admin.jar, doomed.id)];
    for (const c of creds) await storeEngineToken(slug, c.clientId);
    const survivor = await makeCredential(host, admin.jar, account.id);
    await storeEngineToken(slug, survivor.clientId);

    expect((await api(host, 'DELETE', `/api/service-account/${doomed.id}`, { cookie: admin.jar })).status).toBe(204);
    for (const c of creds) {
      expect(await clientRow(slug, c.clientId)).toBeUndefined();
      expect(await engineTokenCount(slug, c.clientId)).toBe(0);
    }
    expect(await realmSql(slug, 'SELECT "id" FROM "ServiceAccountCredential" WHERE "serviceAccountId" = $1', [doomed.id])).toEqual([]);
    expect(await realmSql(slug, 'SELECT "groupId" FROM "ServiceAccountGroup" WHERE "serviceAccountId" = $1', [doomed.id])).toEqual([]);
    expect(await clientRow(slug, survivor.clientId)).toBeDefined();
    expect(await engineTokenCount(slug, survivor.clientId)).toBe(1);
  });

  it('a credential of an inactive account starts with its client disabled', async () => {
    const off = await makeAccount(host, admin.jar, { IsActive: false });
    const cred = await makeCredential(host, admin.jar, off.id);
    expect(Boolean((await clientRow(slug, cred.clientId))!.isActive)).toBe(false);
  });

  describe('permissions', () => {
    let plain: CookieJar;
    let reader: CookieJar;
    let writer: CookieJar;
    let credId: string;

    beforeAll(async () => {
      plain = await signedIn(host, await makeUser(host, admin.jar));
      const r = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['service-account:read'], r.id);
      reader = await signedIn(host, r);
      const w = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['service-account:write'], w.id);
      writer = await signedIn(host, w);
      credId = (await makeCredential(host, admin.jar, account.id)).id;
    });

    it('anonymous callers get 401', async () => {
      expectProblem(await api(host, 'GET', base), 401);
      expectProblem(await api(host, 'POST', base, { body: {} }), 401);
      expectProblem(await api(host, 'PUT', `${base}/${credId}`, { body: {} }), 401);
      expectProblem(await api(host, 'POST', `${base}/${credId}/rotate`), 401);
      expectProblem(await api(host, 'DELETE', `${base}/${credId}`), 401);
    });

    it('without service-account permissions: 403 everywhere', async () => {
      expectProblem(await api(host, 'GET', base, { cookie: plain }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'POST', base, { cookie: plain, body: {} }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'PUT', `${base}/${credId}`, { cookie: plain, body: {} }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'POST', `${base}/${credId}/rotate`, { cookie: plain }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'DELETE', `${base}/${credId}`, { cookie: plain }), 403, 'Auth.Forbidden');
    });

    it('service-account:read lists but cannot create, change, rotate or delete', async () => {
      expect((await api(host, 'GET', base, { cookie: reader })).status).toBe(200);
      expectProblem(await api(host, 'POST', base, { cookie: reader, body: {} }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'PUT', `${base}/${credId}`, { cookie: reader, body: {} }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'POST', `${base}/${credId}/rotate`, { cookie: reader }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'DELETE', `${base}/${credId}`, { cookie: reader }), 403, 'Auth.Forbidden');
    });

    it('service-account:write manages credentials of an account that holds nothing it lacks', async () => {
      const made = await api(host, 'POST', base, { cookie: writer, body: { DisplayName: 'by writer' } });
      expect(made.status, made.text).toBe(201);
      expect((await api(host, 'PUT', `${base}/${made.body.Id}`, { cookie: writer, body: { Scopes: ['openid'] } })).status).toBe(200);
      expect((await api(host, 'POST', `${base}/${made.body.Id}/rotate`, { cookie: writer })).status).toBe(200);
      expect((await api(host, 'DELETE', `${base}/${made.body.Id}`, { cookie: writer })).status).toBe(204);
    });
  });
});

import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeAccount, makeCredential } from '../service-accounts/fixtures';
import { api, expectProblem, type ApiResponse } from '../support/harness';
import { dpopClientCredentials, dpopKey, htuOf, proof, type DpopKey, type ProofParts } from '../support/dpop';
import { createClient } from '../support/oauth';
import { grant } from '../users/fixtures';
import { isJwt, MANAGEMENT_AUDIENCE, MANAGEMENT_SCOPE, oauthRealm, type OAuthRealm } from './fixtures';

// DPoP-bound access tokens at Gatehouse's own API (issue 30 item 2, RFC 9449 7.1-7.2): the engine
// binds a token to the key of the proof sent to its token endpoint (`cnf.jkt`); the Management API
// then accepts that token only as `Authorization: DPoP` with a fresh proof of the same key for this
// very request (method, URI, token hash), once. Presented as a plain bearer token it is refused, so a
// copied token is worth nothing without the key. An unbound token is refused under the DPoP scheme.

const CLIENTS = '/api/admin/oauth/clients';
const newClientBody = () => ({
  DisplayName: 'Made by a DPoP robot',
  ClientType: 'Public',
  ConsentType: 'Explicit',
  RedirectUris: ['https://app.example.test/cb'],
  GrantTypes: ['authorization_code'],
  Scopes: ['openid'],
});

describe('DPoP-bound tokens at the Management API', () => {
  let realm: OAuthRealm;
  let cred: { clientId: string; secret: string };
  let key: DpopKey;
  let token: string;

  /** POST /api/admin/oauth/clients with `authorization` and, when given, a proof made of `parts`. */
  async function createWith(authorization: string, parts?: Partial<ProofParts> & { raw?: string; key?: DpopKey }): Promise<ApiResponse> {
    const headers: Record<string, string> = { authorization };
    if (parts?.raw !== undefined) headers.dpop = parts.raw;
    else if (parts) headers.dpop = await proof(parts.key ?? key, { htm: 'POST', htu: htuOf(realm.host, CLIENTS), token, ...parts });
    return api(realm.host, 'POST', CLIENTS, { headers, body: newClientBody() });
  }

  const expectProofRefused = (res: ApiResponse) => {
    expectProblem(res, 401, 'Auth.InvalidDpopProof');
    expect(res.headers['www-authenticate']).toMatch(/^DPoP error="invalid_dpop_proof", algs="[^"]*ES256[^"]*"$/);
  };

  beforeAll(async () => {
    realm = await oauthRealm();
    const { groupId } = await grant(realm.host, realm.admin.jar, ['oauth-client:write', 'oauth-client:read', 'invite-code:read']);
    const account = await makeAccount(realm.host, realm.admin.jar, { GroupIds: [groupId] });
    cred = await makeCredential(realm.host, realm.admin.jar, account.id, { Scopes: [MANAGEMENT_SCOPE] });
    key = await dpopKey();
    const res = await dpopClientCredentials(realm.host, cred.clientId, cred.secret, MANAGEMENT_SCOPE, key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.token_type).toBe('DPoP');
    token = res.body.access_token;
  });

  it('the engine binds the JWT to the key of its proof, and discovery names the proof algorithms', async () => {
    expect(isJwt(token)).toBe(true);
    expect(decodeJwt(token)).toMatchObject({ cnf: { jkt: key.jkt }, aud: MANAGEMENT_AUDIENCE });
    const discovery = await api(realm.host, 'GET', '/.well-known/openid-configuration');
    expect(discovery.body.dpop_signing_alg_values_supported).toEqual(['ES256', 'Ed25519', 'EdDSA']);
  });

  it('a bound token presented as a bearer token is refused, and creates nothing', async () => {
    const before = await api(realm.host, 'GET', `${CLIENTS}?pageSize=200`, { cookie: realm.admin.jar });
    const res = await createWith(`Bearer ${token}`);
    expectProblem(res, 401, 'Auth.DpopRequired');
    expect(res.headers['www-authenticate']).toMatch(/^DPoP error="invalid_token", algs="/);
    // Not even with a good proof beside it: the scheme says what the client believes the token is.
    expectProblem(await createWith(`Bearer ${token}`, {}), 401, 'Auth.DpopRequired');
    const after = await api(realm.host, 'GET', `${CLIENTS}?pageSize=200`, { cookie: realm.admin.jar });
    expect(after.body.totalCount ?? after.body.items.length).toBe(before.body.totalCount ?? before.body.items.length);
  });

  it('as DPoP without a proof, it is refused', async () => {
    expectProofRefused(await createWith(`DPoP ${token}`));
    expectProofRefused(await createWith(`DPoP ${token}`, { raw: '' }));
  });

  it('a proof for another method, URI, token or key, or a stale or future one, is refused', async () => {
    const other = await dpopKey();
    const otherToken = (await dpopClientCredentials(realm.host, cred.clientId, cred.secret, MANAGEMENT_SCOPE, other)).body.access_token as string;
    const now = Math.floor(Date.now() / 1000);
    const bad: [string, Partial<ProofParts> & { key?: DpopKey }][] = [
      ['htm', { htm: 'GET' }],
      ['htm case', { htm: 'post' }],
      ['htu path', { htu: htuOf(realm.host, '/api/admin/oauth/scopes') }],
      [
        'htu host',
        { htu: `http://elsewhere.localhost${new URL(htuOf(realm.host, CLIENTS)).port ? `:${new URL(htuOf(realm.host, CLIENTS)).port}` : ''}${CLIENTS}` },
      ],
      ['htu scheme', { htu: htuOf(realm.host, CLIENTS).replace(/^http:/, 'https:') }],
      ['ath of another token', { token: otherToken }],
      ['no ath', { claims: { ath: undefined } }],
      ['key the token is not bound to', { key: other }],
      ['stale iat', { claims: { iat: now - 300 } }],
      ['future iat', { claims: { iat: now + 300 } }],
      ['no jti', { claims: { jti: undefined } }],
      ['typ', { header: { typ: 'JWT' } }],
      ['private key in jwk', { header: { jwk: { ...key.publicJwk, d: 'AAAA' } } }],
    ];
    for (const [label, parts] of bad) {
      const res = await createWith(`DPoP ${token}`, parts);
      expect(res.status, `${label}: ${res.text}`).toBe(401);
      expectProofRefused(res);
    }
    // Two proofs (two DPoP header fields arrive joined) and junk.
    const good = await proof(key, { htm: 'POST', htu: htuOf(realm.host, CLIENTS), token });
    expectProofRefused(await createWith(`DPoP ${token}`, { raw: `${good}, ${good}` }));
    expectProofRefused(await createWith(`DPoP ${token}`, { raw: 'not.a.proof' }));
  });

  it('with a fresh proof of its key the token works, once per proof', async () => {
    const dpop = await proof(key, { htm: 'POST', htu: htuOf(realm.host, CLIENTS), token });
    const created = await createWith(`DPoP ${token}`, { raw: dpop });
    expect(created.status, created.text).toBe(201);
    // The same proof again (a replayed request) is refused, though everything else in it is right.
    expectProofRefused(await createWith(`DPoP ${token}`, { raw: dpop }));
    // A new proof for the next request works, on another route that takes tokens: the query is no part of htu.
    const next = await proof(key, { htm: 'GET', htu: htuOf(realm.host, '/api/admin/invite-codes'), token });
    const codes = await api(realm.host, 'GET', '/api/admin/invite-codes?pageSize=5', { headers: { authorization: `DPoP ${token}`, dpop: next } });
    expect(codes.status, codes.text).toBe(200);
    expect((await createWith(`DPoP ${token}`, {})).status).toBe(201);
  });

  it('an unbound token is refused under the DPoP scheme, and still works as a bearer token', async () => {
    const plain = await api(realm.host, 'POST', '/connect/token', {
      rawBody: new URLSearchParams({ grant_type: 'client_credentials', scope: MANAGEMENT_SCOPE }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: { authorization: `Basic ${Buffer.from(`${encodeURIComponent(cred.clientId)}:${encodeURIComponent(cred.secret)}`).toString('base64')}` },
    });
    expect(plain.body.token_type).toBe('Bearer');
    const unbound = plain.body.access_token as string;
    const dpop = await proof(key, { htm: 'POST', htu: htuOf(realm.host, CLIENTS), token: unbound });
    const res = await api(realm.host, 'POST', CLIENTS, { headers: { authorization: `DPoP ${unbound}`, dpop }, body: newClientBody() });
    expectProblem(res, 401, 'Auth.TokenNotDpopBound');
    expect(res.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    const asBearer = await api(realm.host, 'POST', CLIENTS, { headers: { authorization: `Bearer ${unbound}` }, body: newClientBody() });
    expect(asBearer.status, asBearer.text).toBe(201);
  });

  it('introspection of the bound JWT names its key and the DPoP token type (RFC 9449 6.2)', async () => {
    const basic = Buffer.from(`${encodeURIComponent(cred.clientId)}:${encodeURIComponent(cred.secret)}`).toString('base64');
    const res = await api(realm.host, 'POST', '/connect/introspect', {
      rawBody: new URLSearchParams({ token }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: { authorization: `Basic ${basic}` },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ active: true, client_id: cred.clientId, token_type: 'DPoP', cnf: { jkt: key.jkt } });
  });

  it('a bound reference (opaque) token meets the same rule, from the binding the engine stored', async () => {
    const client = await createClient(realm.host, realm.admin.jar, {
      DisplayName: 'Reference DPoP job',
      ClientType: 'Confidential',
      AccessTokenType: 'Reference',
      GrantTypes: ['client_credentials'],
      Scopes: [MANAGEMENT_SCOPE],
    });
    const refKey = await dpopKey('Ed25519');
    const basic = Buffer.from(`${encodeURIComponent(client.ClientId)}:${encodeURIComponent(client.ClientSecret!)}`).toString('base64');
    const issued = await api(realm.host, 'POST', '/connect/token', {
      rawBody: new URLSearchParams({ grant_type: 'client_credentials', scope: MANAGEMENT_SCOPE, resource: MANAGEMENT_AUDIENCE }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: { authorization: `Basic ${basic}`, dpop: await proof(refKey, { htm: 'POST', htu: htuOf(realm.host, '/connect/token') }) },
    });
    expect(issued.status, issued.text).toBe(200);
    const opaque = issued.body.access_token as string;
    expect(isJwt(opaque)).toBe(false);

    const bearer = await api(realm.host, 'POST', CLIENTS, { headers: { authorization: `Bearer ${opaque}` }, body: newClientBody() });
    expectProblem(bearer, 401, 'Auth.DpopRequired');
    const wrongKey = await proof(key, { htm: 'POST', htu: htuOf(realm.host, CLIENTS), token: opaque });
    expectProofRefused(await api(realm.host, 'POST', CLIENTS, { headers: { authorization: `DPoP ${opaque}`, dpop: wrongKey }, body: newClientBody() }));
    // With its proof the token authenticates: the client acting as itself then meets the permission check.
    const dpop = await proof(refKey, { htm: 'POST', htu: htuOf(realm.host, CLIENTS), token: opaque });
    const proper = await api(realm.host, 'POST', CLIENTS, { headers: { authorization: `DPoP ${opaque}`, dpop }, body: newClientBody() });
    expectProblem(proper, 403, 'Auth.Forbidden');
  });
});

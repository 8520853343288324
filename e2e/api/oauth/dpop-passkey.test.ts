import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectProblem, type ApiResponse } from '../support/harness';
import { dpopKey, htuOf, proof, type DpopKey } from '../support/dpop';
import { createClient } from '../support/oauth';
import { consentedTokens, oauthRealm, rp, webClientBody, type OAuthRealm } from './fixtures';

// /connect/passkey (spec 4.4) takes an access token as the Management API does, so a DPoP-bound one
// (issue 30 item 2, RFC 9449 7.1) only as `DPoP` with a fresh proof of its key for this method and
// path; as a plain bearer token it is refused.
const PASSKEYS_SCOPE = 'gatehouse.passkeys';

describe('DPoP-bound tokens at /connect/passkey', () => {
  let realm: OAuthRealm;
  let key: DpopKey;
  let token: string;

  const call = (method: string, path: string, authorization: string, dpop?: string): Promise<ApiResponse> =>
    api(realm.host, method, path, { headers: { authorization, ...(dpop === undefined ? {} : { dpop }) } });
  const proofFor = (method: string, path: string, extra: { key?: DpopKey; token?: string } = {}) =>
    proof(extra.key ?? key, { htm: method, htu: htuOf(realm.host, path), token: extra.token ?? token });

  beforeAll(async () => {
    realm = await oauthRealm();
    const web = await createClient(realm.host, realm.admin.jar, webClientBody({ DisplayName: 'DPoP passkey manager', Scopes: ['openid', PASSKEYS_SCOPE] }));
    const config = await rp(realm.host, web.ClientId, web.ClientSecret);
    key = await dpopKey();
    const publicKey = await crypto.subtle.importKey('jwk', key.publicJwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
    const DPoP = oidc.getDPoPHandle(config, { privateKey: key.privateKey, publicKey });
    const tokens = await consentedTokens(realm.host, config, realm.admin.jar, `openid ${PASSKEYS_SCOPE}`, {}, { DPoP });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    token = tokens.access_token;
    expect(decodeJwt(token)).toMatchObject({ cnf: { jkt: key.jkt } });
  });

  it('as a bearer token the bound token is refused', async () => {
    for (const res of [await call('GET', '/connect/passkey', `Bearer ${token}`), await call('DELETE', '/connect/passkey/any', `Bearer ${token}`)]) {
      expectProblem(res, 401, 'Auth.DpopRequired');
      expect(res.headers['www-authenticate']).toMatch(/^DPoP error="invalid_token", algs="/);
    }
  });

  it('as DPoP it needs a proof for this method, path, token and key', async () => {
    const other = await dpopKey();
    const refused = [
      await call('GET', '/connect/passkey', `DPoP ${token}`),
      await call('GET', '/connect/passkey', `DPoP ${token}`, await proofFor('DELETE', '/connect/passkey')),
      await call('GET', '/connect/passkey', `DPoP ${token}`, await proofFor('GET', '/connect/passkey/begin')),
      await call('GET', '/connect/passkey', `DPoP ${token}`, await proofFor('GET', '/connect/passkey', { token: 'another-token-entirely' })),
      await call('GET', '/connect/passkey', `DPoP ${token}`, await proofFor('GET', '/connect/passkey', { key: other })),
    ];
    for (const res of refused) {
      expectProblem(res, 401, 'Auth.InvalidDpopProof');
      expect(res.headers['www-authenticate']).toMatch(/^DPoP error="invalid_dpop_proof"/);
    }
  });

  it('with its proof it lists and deletes, and a proof is good once', async () => {
    const dpop = await proofFor('GET', '/connect/passkey');
    const listed = await call('GET', '/connect/passkey', `DPoP ${token}`, dpop);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual([]);
    expectProblem(await call('GET', '/connect/passkey', `DPoP ${token}`, dpop), 401, 'Auth.InvalidDpopProof');

    // Past authentication, a passkey that is not the person's is simply not found.
    const path = `/connect/passkey/${crypto.randomUUID()}`;
    const removed = await call('DELETE', path, `DPoP ${token}`, await proofFor('DELETE', path));
    expect(removed.status, removed.text).toBe(404);
  });
});

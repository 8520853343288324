import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectProblem, suite } from '../support/harness';
import { createClient } from '../support/oauth';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { codeFlowTokens, consentedTokens, MANAGEMENT_AUDIENCE, MANAGEMENT_SCOPE, oauthRealm, rp, verifyJwt, webClientBody, type OAuthRealm } from './fixtures';

// /connect/passkey (spec 4.4) lists and revokes the token subject's passkeys. Only a token meant for
// Gatehouse (audience urn:gatehouse:management-api) carrying the dedicated scope gatehouse.passkeys
// is admitted (issue 8 item 3): an openid-only token of any client, or a Management API token
// without that scope, is refused with an RFC 6750 challenge.
const PASSKEYS_SCOPE = 'gatehouse.passkeys';

describe('bearer access to /connect/passkey', () => {
  let realm: OAuthRealm;
  let passkeyId: string;

  const list = (token: string) => api(realm.host, 'GET', '/connect/passkey', { headers: { authorization: `Bearer ${token}` } });
  const remove = (token: string, id: string) => api(realm.host, 'DELETE', `/connect/passkey/${id}`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    realm = await oauthRealm();
    const auth = new SoftAuthenticator(suite().port);
    const options = await api(realm.host, 'POST', '/api/account/passkey/register-options', { cookie: realm.admin.jar, body: {} });
    const reg = await api(realm.host, 'POST', '/api/account/passkey/register', { cookie: realm.admin.jar, body: auth.create(options.body) });
    expect(reg.status, reg.text).toBe(200);
    const mine = await api(realm.host, 'GET', '/api/account/passkey', { cookie: realm.admin.jar });
    passkeyId = (mine.body as { Id: string }[])[0]?.Id;
  });

  it('the scope is seeded as a built-in scope of the Management API', async () => {
    const scopes = await api(realm.host, 'GET', `/api/admin/oauth/scopes?pageSize=200`, { cookie: realm.admin.jar });
    const row = (scopes.body.items as { Name: string; IsBuiltIn: boolean; Resources: string[] }[]).find((s) => s.Name === PASSKEYS_SCOPE);
    expect(row).toMatchObject({ IsBuiltIn: true, Resources: [MANAGEMENT_AUDIENCE] });
  });

  it('an openid-only token is refused (403 insufficient_scope), and so is a management token without the scope', async () => {
    const web = await createClient(realm.host, realm.admin.jar, webClientBody({ Scopes: ['openid', MANAGEMENT_SCOPE, PASSKEYS_SCOPE] }));
    const config = await rp(realm.host, web.ClientId, web.ClientSecret);

    const plain = await codeFlowTokens(realm.host, config, realm.admin.jar, 'openid');
    for (const res of [await list(plain.access_token), await remove(plain.access_token, passkeyId)]) {
      expectProblem(res, 403, 'Auth.InsufficientScope');
      expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"');
    }

    const management = await consentedTokens(realm.host, config, realm.admin.jar, `openid ${MANAGEMENT_SCOPE}`);
    await verifyJwt(realm.host, management.access_token, MANAGEMENT_AUDIENCE);
    for (const res of [await list(management.access_token), await remove(management.access_token, passkeyId)]) {
      expectProblem(res, 403, 'Auth.InsufficientScope');
      expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"');
    }
    const garbage = await list('not-a-token-at-all-0123456789');
    expectProblem(garbage, 401, 'Auth.InvalidToken');
    expect(garbage.headers['www-authenticate']).toContain('error="invalid_token"');

    // Nothing was removed.
    expect((await api(realm.host, 'GET', '/api/account/passkey', { cookie: realm.admin.jar })).body).toHaveLength(1);
  });

  it("a Gatehouse token with gatehouse.passkeys lists and revokes the subject's passkeys", async () => {
    const web = await createClient(realm.host, realm.admin.jar, webClientBody({ DisplayName: 'Passkey manager', Scopes: ['openid', PASSKEYS_SCOPE] }));
    const config = await rp(realm.host, web.ClientId, web.ClientSecret);
    const tokens = await consentedTokens(realm.host, config, realm.admin.jar, `openid ${PASSKEYS_SCOPE}`);
    const { payload } = await verifyJwt(realm.host, tokens.access_token, MANAGEMENT_AUDIENCE);
    expect(String(payload.scope).split(' ')).toContain(PASSKEYS_SCOPE);

    const listed = await list(tokens.access_token);
    expect(listed.status, listed.text).toBe(200);
    expect((listed.body as { Id: string }[]).map((p) => p.Id)).toEqual([passkeyId]);
    const del = await remove(tokens.access_token, passkeyId);
    expect(del.status, del.text).toBe(204);
    expect((await list(tokens.access_token)).body).toHaveLength(0);
  });
});

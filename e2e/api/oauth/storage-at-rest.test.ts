import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/harness';
import { createClient, issuerOf, realmFetch } from '../support/oauth';
import { engineKey, realmSql } from '../support/realm-sql';
import { authorize, DEVICE_CODE_GRANT, MANAGEMENT_SCOPE, oauthRealm, REDIRECT, rp, webClientBody, type OAuthRealm } from './fixtures';

// Secrets at rest in the engine's storage (issue 8 item 5): OidcPayload keeps the engine's records
// under the SHA-256 of their ids, with bearer values inside them sealed, so a dump of the realm's
// database yields no authorization code, access or refresh token, device or user code,
// registration access token or engine session id. Everything still works from the plain values.
describe('the engine storage holds no usable token', () => {
  let realm: OAuthRealm;

  beforeAll(async () => {
    realm = await oauthRealm();
  });

  const dump = async () => JSON.stringify(await realmSql(realm.slug, 'SELECT * FROM "OidcPayload"'));

  it('after code, refresh, client-credentials, device and registration flows, no row contains any of their values', async () => {
    const secrets: Record<string, string> = {};

    // Authorization code flow with a refresh token, then a rotation.
    const web = await createClient(realm.host, realm.admin.jar, webClientBody());
    const config = await rp(realm.host, web.ClientId, web.ClientSecret);
    const a = await authorize(realm.host, config, realm.admin.jar, 'openid offline_access');
    expect(a.callback.origin + a.callback.pathname, a.page.hops.join(' -> ')).toBe(REDIRECT);
    secrets.code = a.callback.searchParams.get('code')!;
    const tokens = await oidc.authorizationCodeGrant(config, a.callback, { pkceCodeVerifier: a.verifier, expectedState: a.state });
    secrets.access = tokens.access_token;
    secrets.refresh = tokens.refresh_token!;
    const rotated = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    secrets.rotatedAccess = rotated.access_token;
    secrets.rotatedRefresh = rotated.refresh_token!;
    secrets.engineSession = realm.admin.jar.get('gatehouse_oidc')!;
    expect(secrets.engineSession).toBeTruthy();
    // The stored token is found by its digest, and the plain value still works everywhere.
    expect(await realmSql(realm.slug, 'SELECT "model" FROM "OidcPayload" WHERE "id" = $1', [engineKey(rotated.refresh_token!)])).toEqual([
      { model: 'RefreshToken' },
    ]);
    expect((await oidc.tokenIntrospection(config, rotated.access_token)).active).toBe(true);
    expect((await oidc.fetchUserInfo(config, rotated.access_token, realm.admin.userId!)).sub).toBe(realm.admin.userId);

    // A reference client-credentials token.
    const ref = await createClient(realm.host, realm.admin.jar, {
      DisplayName: 'Ref',
      ClientType: 'Confidential',
      AccessTokenType: 'Reference',
      GrantTypes: ['client_credentials'],
      Scopes: [MANAGEMENT_SCOPE],
    });
    const refConfig = await rp(realm.host, ref.ClientId, ref.ClientSecret);
    secrets.reference = (await oidc.clientCredentialsGrant(refConfig, { scope: MANAGEMENT_SCOPE })).access_token;
    expect((await oidc.tokenIntrospection(refConfig, secrets.reference)).active).toBe(true);

    // A device authorization: its device code and user code.
    const tv = await createClient(realm.host, realm.admin.jar, {
      DisplayName: 'TV',
      ClientType: 'Public',
      ConsentType: 'Implicit',
      GrantTypes: [DEVICE_CODE_GRANT],
      Scopes: ['openid'],
    });
    const da = await oidc.initiateDeviceAuthorization(await rp(realm.host, tv.ClientId), { scope: 'openid' });
    secrets.deviceCode = da.device_code;
    secrets.userCode = da.user_code;
    const page = await api(realm.host, 'GET', `/connect/device?user_code=${encodeURIComponent(da.user_code)}`, {
      cookie: realm.admin.jar,
      headers: { accept: 'text/html' },
    });
    expect(page.status).toBe(200);

    // A dynamically registered client's registration access token.
    expect((await api(realm.host, 'PATCH', '/api/realm-settings', { cookie: realm.admin.jar, body: { Dcr: { Enabled: true } } })).status).toBe(200);
    const registered = await oidc.dynamicClientRegistration(
      new URL(issuerOf(realm.host)),
      { grant_types: ['client_credentials'], response_types: [], token_endpoint_auth_method: 'client_secret_basic' },
      undefined,
      {
        execute: [oidc.allowInsecureRequests],
        [oidc.customFetch]: realmFetch(),
      },
    );
    secrets.registration = String(registered.clientMetadata().registration_access_token);
    const uri = new URL(String(registered.clientMetadata().registration_client_uri));
    expect((await api(realm.host, 'GET', uri.pathname, { headers: { authorization: `Bearer ${secrets.registration}` } })).status).toBe(200);

    const stored = await dump();
    for (const [name, value] of Object.entries(secrets)) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(stored.includes(value), `${name} is stored in clear`).toBe(false);
    }
    // The user code is shown with a dash; neither form is stored.
    expect(stored.includes(secrets.userCode.replace(/-/g, ''))).toBe(false);
  });
});

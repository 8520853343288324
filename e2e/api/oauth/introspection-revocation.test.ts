import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/harness';
import { createClient, issuerOf } from '../support/oauth';
import { codeFlowTokens, isJwt, MANAGEMENT_AUDIENCE, MANAGEMENT_SCOPE, oauthFailure, oauthRealm, rp, userinfo, webClientBody, type OAuthRealm } from './fixtures';

// Token introspection (RFC 7662) and revocation (RFC 7009), issue 4.3/4.4: what the engine stores
// (user access tokens, refresh tokens, reference client-credentials tokens) is reported active
// until revoked; revoking an access or refresh token ends its whole grant.

describe('introspection and revocation', () => {
  let realm: OAuthRealm;
  let web: { ClientId: string; ClientSecret?: string };
  let webConfig: oidc.Configuration;
  let reference: oidc.Configuration;
  let referenceClientId: string;

  beforeAll(async () => {
    realm = await oauthRealm();
    web = await createClient(realm.host, realm.admin.jar, webClientBody());
    webConfig = await rp(realm.host, web.ClientId, web.ClientSecret);
    const ref = await createClient(realm.host, realm.admin.jar, {
      DisplayName: 'Reference job',
      ClientType: 'Confidential',
      AccessTokenType: 'Reference',
      GrantTypes: ['client_credentials'],
      Scopes: [MANAGEMENT_SCOPE],
    });
    referenceClientId = ref.ClientId;
    reference = await rp(realm.host, ref.ClientId, ref.ClientSecret);
  });

  it('a user’s access and refresh tokens introspect as active, with the person and the scope', async () => {
    const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid profile offline_access');
    // Without a resource the access token is for userinfo: opaque, stored, introspectable.
    expect(isJwt(tokens.access_token)).toBe(false);
    const access = await oidc.tokenIntrospection(webConfig, tokens.access_token, { token_type_hint: 'access_token' });
    expect(access).toMatchObject({ active: true, sub: realm.admin.userId, client_id: web.ClientId, scope: 'openid profile offline_access', token_type: 'Bearer', iss: issuerOf(realm.host) });
    expect(access.exp! - access.iat!).toBe(3600);
    const refresh = await oidc.tokenIntrospection(webConfig, tokens.refresh_token!, { token_type_hint: 'refresh_token' });
    expect(refresh).toMatchObject({ active: true, sub: realm.admin.userId, client_id: web.ClientId });
    expect(refresh.token_type).toBeUndefined();
    // A hint naming the wrong kind is only a hint.
    expect((await oidc.tokenIntrospection(webConfig, tokens.refresh_token!, { token_type_hint: 'access_token' })).active).toBe(true);
  });

  it('an unknown token is simply inactive', async () => {
    expect(await oidc.tokenIntrospection(webConfig, 'not-a-token-the-realm-issued')).toEqual({ active: false });
  });

  it('introspection needs client authentication', async () => {
    const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid');
    const res = await api(realm.host, 'POST', '/connect/introspect', { rawBody: new URLSearchParams({ token: tokens.access_token }).toString(), contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    const wrong = await rp(realm.host, web.ClientId, 'not-the-secret');
    expect(await oauthFailure(oidc.tokenIntrospection(wrong, tokens.access_token))).toMatchObject({ error: 'invalid_client', status: 401 });
  });

  it('revoking the access token ends it and the rest of its grant; userinfo then answers 401', async () => {
    const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid offline_access');
    expect((await userinfo(realm.host, tokens.access_token)).status).toBe(200);
    await oidc.tokenRevocation(webConfig, tokens.access_token, { token_type_hint: 'access_token' });
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(false);
    const info = await userinfo(realm.host, tokens.access_token);
    expect(info.status).toBe(401);
    expect(String(info.headers['www-authenticate'])).toMatch(/error="invalid_token"/);
    // The engine revokes the grant with it, so the refresh token is gone too.
    expect((await oidc.tokenIntrospection(webConfig, tokens.refresh_token!)).active).toBe(false);
    expect((await oauthFailure(oidc.refreshTokenGrant(webConfig, tokens.refresh_token!))).error).toBe('invalid_grant');
    // Revoking again is not an error (RFC 7009 2.2).
    await oidc.tokenRevocation(webConfig, tokens.access_token);
  });

  it('revoking the refresh token ends the grant: the refresh token and its access tokens', async () => {
    const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid offline_access');
    const rotated = await oidc.refreshTokenGrant(webConfig, tokens.refresh_token!);
    await oidc.tokenRevocation(webConfig, rotated.refresh_token!, { token_type_hint: 'refresh_token' });
    expect((await oidc.tokenIntrospection(webConfig, rotated.refresh_token!)).active).toBe(false);
    expect((await oauthFailure(oidc.refreshTokenGrant(webConfig, rotated.refresh_token!))).error).toBe('invalid_grant');
    expect((await oidc.tokenIntrospection(webConfig, rotated.access_token)).active).toBe(false);
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(false);
    expect((await userinfo(realm.host, rotated.access_token)).status).toBe(401);
  });

  it('a reference client-credentials token: active with its audience, then inactive once revoked', async () => {
    const tokens = await oidc.clientCredentialsGrant(reference, { scope: MANAGEMENT_SCOPE });
    expect(await oidc.tokenIntrospection(reference, tokens.access_token)).toMatchObject({ active: true, client_id: referenceClientId, aud: MANAGEMENT_AUDIENCE, scope: MANAGEMENT_SCOPE });
    await oidc.tokenRevocation(reference, tokens.access_token);
    expect(await oidc.tokenIntrospection(reference, tokens.access_token)).toEqual({ active: false });
  });

  it('a client cannot revoke another client’s token', async () => {
    const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid');
    const failure = await oauthFailure(oidc.tokenRevocation(reference, tokens.access_token));
    expect(failure).toMatchObject({ error: 'invalid_request', status: 400 });
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(true);
  });

  it('a JWT access token cannot be revoked at the endpoint (it is self-contained): unsupported_token_type', async () => {
    const jwtClient = await createClient(realm.host, realm.admin.jar, { DisplayName: 'JWT job', ClientType: 'Confidential', GrantTypes: ['client_credentials'], Scopes: [MANAGEMENT_SCOPE] });
    const config = await rp(realm.host, jwtClient.ClientId, jwtClient.ClientSecret);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE });
    expect(isJwt(tokens.access_token)).toBe(true);
    expect((await oauthFailure(oidc.tokenRevocation(config, tokens.access_token))).error).toBe('unsupported_token_type');
  });
});

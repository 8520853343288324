import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeAccount, makeCredential } from '../service-accounts/fixtures';
import { makeUser, signedIn } from '../users/fixtures';
import { api, expectProblem } from '../support/harness';
import { createClient, issuerOf } from '../support/oauth';
import {
  codeFlowTokens,
  isJwt,
  MANAGEMENT_AUDIENCE,
  MANAGEMENT_SCOPE,
  oauthFailure,
  oauthRealm,
  rp,
  userinfo,
  webClientBody,
  type OAuthRealm,
} from './fixtures';

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
    expect(access).toMatchObject({
      active: true,
      sub: realm.admin.userId,
      client_id: web.ClientId,
      scope: 'openid profile offline_access',
      token_type: 'Bearer',
      iss: issuerOf(realm.host),
    });
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
    const res = await api(realm.host, 'POST', '/connect/introspect', {
      rawBody: new URLSearchParams({ token: tokens.access_token }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
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

  // The engine's reads of tokens, grants and people are kept in memory on SQLite (lib/db/sqlite-read-cache.ts):
  // a change made through the API is seen by the very next answer.
  it('userinfo answers the person as they are now: a changed name at once, a deactivated person 401', async () => {
    const person = await makeUser(realm.host, realm.admin.jar, { Firstname: 'Ada' });
    const tokens = await codeFlowTokens(realm.host, webConfig, await signedIn(realm.host, person), 'openid profile');
    const before = await userinfo(realm.host, tokens.access_token);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ sub: person.id, given_name: 'Ada' });
    expect((await userinfo(realm.host, tokens.access_token)).body.given_name).toBe('Ada');

    const renamed = await api(realm.host, 'PUT', `/api/user/${person.id}`, { cookie: realm.admin.jar, body: { Firstname: 'Grace' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await userinfo(realm.host, tokens.access_token)).body).toMatchObject({ sub: person.id, given_name: 'Grace' });

    const off = await api(realm.host, 'PUT', `/api/user/${person.id}/active`, { cookie: realm.admin.jar, body: { IsActive: false } });
    expect(off.status, off.text).toBe(200);
    expect((await userinfo(realm.host, tokens.access_token)).status).toBe(401);
  });

  it('a reference client-credentials token: active with its audience, then inactive once revoked', async () => {
    const tokens = await oidc.clientCredentialsGrant(reference, { scope: MANAGEMENT_SCOPE });
    expect(await oidc.tokenIntrospection(reference, tokens.access_token)).toMatchObject({
      active: true,
      client_id: referenceClientId,
      aud: MANAGEMENT_AUDIENCE,
      scope: MANAGEMENT_SCOPE,
    });
    await oidc.tokenRevocation(reference, tokens.access_token);
    expect(await oidc.tokenIntrospection(reference, tokens.access_token)).toEqual({ active: false });
  });

  // Issue 8 item 11: a client introspects its own tokens; any token only with cap:introspect-any.
  it("a client introspects only its own tokens; another client's answer inactive unless it holds cap:introspect-any", async () => {
    const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid offline_access');
    // reference is a confidential client of the same realm, without the capability.
    expect(await oidc.tokenIntrospection(reference, tokens.access_token)).toEqual({ active: false });
    expect(await oidc.tokenIntrospection(reference, tokens.refresh_token!)).toEqual({ active: false });
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(true);

    const rs = await createClient(realm.host, realm.admin.jar, {
      DisplayName: 'Resource server',
      ClientType: 'Confidential',
      GrantTypes: ['client_credentials'],
      Scopes: [],
      Capabilities: ['cap:introspect-any'],
    });
    const rsConfig = await rp(realm.host, rs.ClientId, rs.ClientSecret);
    expect(await oidc.tokenIntrospection(rsConfig, tokens.access_token)).toMatchObject({ active: true, client_id: web.ClientId, sub: realm.admin.userId });
    // The capability is for clients that authenticate.
    const res = await api(realm.host, 'POST', '/api/admin/oauth/clients', {
      cookie: realm.admin.jar,
      body: { ...webClientBody({ ClientType: 'Public', GrantTypes: ['authorization_code'] }), Capabilities: ['cap:introspect-any'] },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.errors)).toContain('cap:introspect-any needs a Confidential client');
  });

  it('a client cannot revoke another client’s token', async () => {
    const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid');
    const failure = await oauthFailure(oidc.tokenRevocation(reference, tokens.access_token));
    expect(failure).toMatchObject({ error: 'invalid_request', status: 400 });
    expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(true);
  });

  // Issue 8 item 15: JWT access tokens are introspected and revoked like the engine's own tokens, and
  // Gatehouse's bearer check agrees with introspection.
  describe('JWT access tokens', () => {
    const bearerCall = (token: string) =>
      api(realm.host, 'POST', '/api/admin/oauth/clients', {
        headers: { authorization: `Bearer ${token}` },
        body: { DisplayName: 'x', ClientType: 'Public', GrantTypes: ['authorization_code'], RedirectUris: ['https://app.example.com/cb'], Scopes: ['openid'] },
      });

    it('a client-credentials JWT introspects as active; once revoked, introspection and the bearer check refuse it', async () => {
      const jwtClient = await createClient(realm.host, realm.admin.jar, {
        DisplayName: 'JWT job',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        Scopes: [MANAGEMENT_SCOPE],
      });
      const config = await rp(realm.host, jwtClient.ClientId, jwtClient.ClientSecret);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE });
      expect(isJwt(tokens.access_token)).toBe(true);
      const info = await oidc.tokenIntrospection(config, tokens.access_token);
      expect(info).toMatchObject({
        active: true,
        client_id: jwtClient.ClientId,
        aud: MANAGEMENT_AUDIENCE,
        scope: MANAGEMENT_SCOPE,
        iss: issuerOf(realm.host),
        token_type: 'Bearer',
      });
      expect(info.exp! - info.iat!).toBe(3600);
      // Live for the API: the client acts as itself and holds no permission (403, not 401).
      expectProblem(await bearerCall(tokens.access_token), 403, 'Auth.Forbidden');
      // Another client of the realm learns nothing about it.
      expect(await oidc.tokenIntrospection(reference, tokens.access_token)).toEqual({ active: false });

      await oidc.tokenRevocation(config, tokens.access_token, { token_type_hint: 'access_token' });
      expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
      const refused = await bearerCall(tokens.access_token);
      expectProblem(refused, 401, 'Auth.InvalidToken');
      expect(refused.headers['www-authenticate']).toContain('invalid_token');
      // Revoking again, or revoking garbage shaped like a JWT, is not an error (RFC 7009 2.2).
      await oidc.tokenRevocation(config, tokens.access_token);
      await oidc.tokenRevocation(config, 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln');
      // Another client cannot revoke it.
      const other = await oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE });
      expect(await oauthFailure(oidc.tokenRevocation(reference, other.access_token))).toMatchObject({ error: 'invalid_request', status: 400 });
      expect((await oidc.tokenIntrospection(config, other.access_token)).active).toBe(true);
    });

    it("a person's JWT for an API: active until its grant ends or its client is deactivated", async () => {
      const t = Date.now();
      const audience = `urn:example:orders:${t}`;
      expect(
        (await api(realm.host, 'POST', '/api/admin/oauth/apis', { cookie: realm.admin.jar, body: { Name: `Orders ${t}`, Audience: audience } })).status,
      ).toBe(201);
      const scope = `orders.read.${t}`;
      expect((await api(realm.host, 'POST', '/api/admin/oauth/scopes', { cookie: realm.admin.jar, body: { Name: scope, Resources: [audience] } })).status).toBe(
        201,
      );
      const app = await createClient(realm.host, realm.admin.jar, webClientBody({ DisplayName: 'Orders app', Scopes: ['openid', 'offline_access', scope] }));
      const config = await rp(realm.host, app.ClientId, app.ClientSecret);
      const rs = await createClient(realm.host, realm.admin.jar, {
        DisplayName: 'Orders API',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        Scopes: [],
        Capabilities: ['cap:introspect-any'],
      });
      const rsConfig = await rp(realm.host, rs.ClientId, rs.ClientSecret);

      const tokens = await codeFlowTokens(realm.host, config, realm.admin.jar, `openid offline_access ${scope}`);
      expect(isJwt(tokens.access_token)).toBe(true);
      expect(await oidc.tokenIntrospection(rsConfig, tokens.access_token)).toMatchObject({
        active: true,
        sub: realm.admin.userId,
        client_id: app.ClientId,
        aud: audience,
        scope,
      });
      // Revoking the refresh token ends the grant, and the JWT with it.
      await oidc.tokenRevocation(config, tokens.refresh_token!, { token_type_hint: 'refresh_token' });
      expect(await oidc.tokenIntrospection(rsConfig, tokens.access_token)).toEqual({ active: false });

      // Revoking the JWT itself ends its grant too (as for the engine's own access tokens).
      const second = await codeFlowTokens(realm.host, config, realm.admin.jar, `openid offline_access ${scope}`);
      await oidc.tokenRevocation(config, second.access_token);
      expect(await oidc.tokenIntrospection(rsConfig, second.access_token)).toEqual({ active: false });
      expect(await oauthFailure(oidc.refreshTokenGrant(config, second.refresh_token!))).toMatchObject({ error: 'invalid_grant' });

      // Deactivating the client ends its tokens.
      const third = await codeFlowTokens(realm.host, config, realm.admin.jar, `openid offline_access ${scope}`);
      expect((await oidc.tokenIntrospection(rsConfig, third.access_token)).active).toBe(true);
      expect((await api(realm.host, 'PUT', `/api/admin/oauth/clients/${app.Id}`, { cookie: realm.admin.jar, body: { IsActive: false } })).status).toBe(200);
      expect(await oidc.tokenIntrospection(rsConfig, third.access_token)).toEqual({ active: false });
    });

    it("a service account's JWT turns inactive when the account is deactivated", async () => {
      const account = await makeAccount(realm.host, realm.admin.jar);
      const cred = await makeCredential(realm.host, realm.admin.jar, account.id, { Scopes: [MANAGEMENT_SCOPE] });
      const token = (await oidc.clientCredentialsGrant(await rp(realm.host, cred.clientId, cred.secret), { scope: MANAGEMENT_SCOPE })).access_token;
      const rs = await createClient(realm.host, realm.admin.jar, {
        DisplayName: 'Checker',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        Scopes: [],
        Capabilities: ['cap:introspect-any'],
      });
      const rsConfig = await rp(realm.host, rs.ClientId, rs.ClientSecret);
      expect(await oidc.tokenIntrospection(rsConfig, token)).toMatchObject({ active: true, client_id: cred.clientId });
      expect((await api(realm.host, 'PUT', `/api/service-account/${account.id}`, { cookie: realm.admin.jar, body: { IsActive: false } })).status).toBe(200);
      expect(await oidc.tokenIntrospection(rsConfig, token)).toEqual({ active: false });
    });
  });
});

import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/harness';
import { createClient, issuerOf, realmFetch } from '../support/oauth';
import { engineKey, realmSql } from '../support/realm-sql';
import {
  authorize,
  codeFlowTokens,
  isJwt,
  MANAGEMENT_AUDIENCE,
  MANAGEMENT_SCOPE,
  oauthError,
  oauthFailure,
  oauthRealm,
  REDIRECT,
  rp,
  shiftedLike,
  userinfo,
  verifyJwt,
  webClientBody,
  type OAuthRealm,
} from './fixtures';

// What the engine must refuse (issue 4 "Negative cases"): a wrong redirect URI, PKCE mismatch or
// absence, a code used twice (and what it issued revoked), expired and revoked tokens, the wrong
// audience, a grant the client does not have, a wrong secret, and a client of one realm at
// another realm's issuer.

describe('negative cases', () => {
  let realm: OAuthRealm;
  let web: { ClientId: string; ClientSecret?: string };
  let webConfig: oidc.Configuration;
  let spa: { ClientId: string };
  let spaConfig: oidc.Configuration;

  beforeAll(async () => {
    realm = await oauthRealm();
    web = await createClient(realm.host, realm.admin.jar, webClientBody());
    webConfig = await rp(realm.host, web.ClientId, web.ClientSecret);
    spa = await createClient(realm.host, realm.admin.jar, { ...webClientBody(), DisplayName: 'SPA', ClientType: 'Public' });
    spaConfig = await rp(realm.host, spa.ClientId);
  });

  /** A raw /connect/authorize in the admin's browser (openid-client would not build these). */
  function rawAuthorize(params: Record<string, string>) {
    return api(realm.host, 'GET', `/connect/authorize?${new URLSearchParams({ response_type: 'code', scope: 'openid', state: 'st', ...params })}`, {
      cookie: realm.admin.jar,
      headers: { accept: 'text/html' },
    });
  }

  describe('authorization requests', () => {
    it('a redirect URI the client did not register: the engine’s error page, never a redirect there', async () => {
      const challenge = await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier());
      for (const uri of ['https://evil.example.com/callback', `${REDIRECT}/more`, `${REDIRECT}?x=1`, 'http://127.0.0.1:10/callback']) {
        const res = await rawAuthorize({ client_id: web.ClientId, redirect_uri: uri, code_challenge: challenge, code_challenge_method: 'S256' });
        expect(res.status, uri).toBe(400);
        expect(res.headers.location).toBeUndefined();
        expect(res.contentType).toMatch(/^text\/html/);
        expect(res.text).toContain('redirect_uri did not match any of the client');
        expect(res.text).not.toMatch(/\n\s+at /);
      }
    });

    it('an unknown client: the error page, no redirect', async () => {
      const res = await rawAuthorize({ client_id: 'no-such-client', redirect_uri: REDIRECT });
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('invalid_client');
    });

    it('a public client without PKCE is refused (the error goes back to its redirect URI)', async () => {
      const res = await rawAuthorize({ client_id: spa.ClientId, redirect_uri: REDIRECT });
      expect(res.status).toBe(303);
      const back = new URL(res.headers.location!);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('error_description')).toMatch(/PKCE/);
      expect(back.searchParams.get('code')).toBeNull();
    });

    it('PKCE with the plain method is refused: S256 only', async () => {
      const res = await rawAuthorize({ client_id: spa.ClientId, redirect_uri: REDIRECT, code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
      const back = new URL(res.headers.location!);
      expect(back.searchParams.get('error')).toBe('invalid_request');
      expect(back.searchParams.get('code')).toBeNull();
    });

    it('a scope the client was not given is refused', async () => {
      const a = await authorize(realm.host, webConfig, realm.admin.jar, `openid ${MANAGEMENT_SCOPE}`);
      expect(a.callback.origin + a.callback.pathname).toBe(REDIRECT);
      expect(a.callback.searchParams.get('error')).toBe('invalid_scope');
    });
  });

  describe('the token endpoint', () => {
    it('a PKCE verifier that does not match the challenge: invalid_grant', async () => {
      const a = await authorize(realm.host, spaConfig, realm.admin.jar, 'openid');
      expect(a.callback.searchParams.get('code')).toBeTruthy();
      expect(
        await oauthError(oidc.authorizationCodeGrant(spaConfig, a.callback, { pkceCodeVerifier: oidc.randomPKCECodeVerifier(), expectedState: a.state })),
      ).toBe('invalid_grant');
      // Without any verifier, too.
      const b = await authorize(realm.host, spaConfig, realm.admin.jar, 'openid');
      const res = await api(realm.host, 'POST', '/connect/token', {
        rawBody: new URLSearchParams({
          grant_type: 'authorization_code',
          code: b.callback.searchParams.get('code')!,
          redirect_uri: REDIRECT,
          client_id: spa.ClientId,
        }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
    });

    it('a code redeemed twice: the second is invalid_grant and the tokens of the first are revoked', async () => {
      const a = await authorize(realm.host, webConfig, realm.admin.jar, 'openid offline_access');
      const first = await oidc.authorizationCodeGrant(webConfig, a.callback, { pkceCodeVerifier: a.verifier, expectedState: a.state });
      expect((await userinfo(realm.host, first.access_token)).status).toBe(200);
      expect((await oidc.tokenIntrospection(webConfig, first.access_token)).active).toBe(true);

      expect(await oauthError(oidc.authorizationCodeGrant(webConfig, a.callback, { pkceCodeVerifier: a.verifier, expectedState: a.state }))).toBe(
        'invalid_grant',
      );

      expect((await oidc.tokenIntrospection(webConfig, first.access_token)).active).toBe(false);
      expect((await userinfo(realm.host, first.access_token)).status).toBe(401);
      expect((await oidc.tokenIntrospection(webConfig, first.refresh_token!)).active).toBe(false);
      expect(await oauthError(oidc.refreshTokenGrant(webConfig, first.refresh_token!))).toBe('invalid_grant');
    });

    it('a code issued to one client cannot be redeemed by another', async () => {
      const other = await createClient(realm.host, realm.admin.jar, { ...webClientBody(), DisplayName: 'Other' });
      const otherConfig = await rp(realm.host, other.ClientId, other.ClientSecret);
      const a = await authorize(realm.host, webConfig, realm.admin.jar, 'openid');
      expect(await oauthError(oidc.authorizationCodeGrant(otherConfig, a.callback, { pkceCodeVerifier: a.verifier, expectedState: a.state }))).toBe(
        'invalid_grant',
      );
    });

    it('a wrong client secret, or none: invalid_client', async () => {
      const wrong = await rp(realm.host, web.ClientId, `${web.ClientSecret}x`);
      expect(await oauthFailure(oidc.tokenIntrospection(wrong, 'whatever'))).toMatchObject({ error: 'invalid_client', status: 401 });
      const cc = await createClient(realm.host, realm.admin.jar, {
        DisplayName: 'Job',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        Scopes: [MANAGEMENT_SCOPE],
      });
      expect(await oauthFailure(oidc.clientCredentialsGrant(await rp(realm.host, cc.ClientId, 'not-the-secret')))).toMatchObject({
        error: 'invalid_client',
        status: 401,
      });
      // Posting the secret in the body instead of the header is also fine, but must still be right.
      const post = await oidc.discovery(new URL(issuerOf(realm.host)), cc.ClientId, undefined, oidc.ClientSecretPost('also-wrong'), {
        execute: [oidc.allowInsecureRequests],
        [oidc.customFetch]: realmFetch(),
      });
      expect(await oauthError(oidc.clientCredentialsGrant(post))).toBe('invalid_client');
      // A confidential client may not present itself as public.
      expect(await oauthError(oidc.clientCredentialsGrant(await rp(realm.host, cc.ClientId)))).toBe('invalid_client');
    });

    it('a deactivated client: invalid_client', async () => {
      const cc = await createClient(realm.host, realm.admin.jar, {
        DisplayName: 'Job',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        Scopes: [MANAGEMENT_SCOPE],
      });
      const config = await rp(realm.host, cc.ClientId, cc.ClientSecret);
      await oidc.clientCredentialsGrant(config);
      const off = await api(realm.host, 'PUT', `/api/admin/oauth/clients/${cc.Id}`, { cookie: realm.admin.jar, body: { IsActive: false } });
      expect(off.status, off.text).toBe(200);
      expect(await oauthError(oidc.clientCredentialsGrant(config))).toBe('invalid_client');
    });

    it('a grant the client was not given is refused', async () => {
      // The web client has authorization_code and refresh_token, not client_credentials.
      // oidc-provider 9 answers invalid_request here where RFC 6749 5.2 names unauthorized_client
      // (reported; rewriting the engine's error is not this suite's to do).
      expect(await oauthFailure(oidc.clientCredentialsGrant(webConfig, { scope: 'openid' }))).toEqual({
        error: 'invalid_request',
        description: 'requested grant type is not allowed for this client',
        status: 400,
      });
      // A client without refresh_token gets no refresh token, and cannot use the grant.
      const noRefresh = await createClient(realm.host, realm.admin.jar, { ...webClientBody(), GrantTypes: ['authorization_code'] });
      const config = await rp(realm.host, noRefresh.ClientId, noRefresh.ClientSecret);
      const tokens = await codeFlowTokens(realm.host, config, realm.admin.jar, 'openid offline_access');
      expect(tokens.refresh_token).toBeUndefined();
      expect(await oauthFailure(oidc.refreshTokenGrant(config, 'anything'))).toMatchObject({
        error: 'invalid_request',
        description: 'requested grant type is not allowed for this client',
      });
      // A client-credentials-only client cannot start a code flow.
      const job = await createClient(realm.host, realm.admin.jar, {
        DisplayName: 'Job',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        RedirectUris: [REDIRECT],
      });
      const res = await rawAuthorize({ client_id: job.ClientId, redirect_uri: REDIRECT, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' });
      expect(res.headers.location ?? '').not.toMatch(/[?&]code=/);
    });
  });

  describe('tokens', () => {
    it('a revoked access token at userinfo: 401 invalid_token', async () => {
      const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid');
      await oidc.tokenRevocation(webConfig, tokens.access_token);
      const res = await userinfo(realm.host, tokens.access_token);
      expect(res.status).toBe(401);
      expect(String(res.headers['www-authenticate'])).toMatch(/error="invalid_token"/);
    });

    it('an access token for an API is refused at userinfo (wrong audience) and does not verify for another audience', async () => {
      const cc = await createClient(realm.host, realm.admin.jar, {
        DisplayName: 'Job',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        Scopes: [MANAGEMENT_SCOPE],
      });
      const tokens = await oidc.clientCredentialsGrant(await rp(realm.host, cc.ClientId, cc.ClientSecret), { scope: MANAGEMENT_SCOPE });
      expect(isJwt(tokens.access_token)).toBe(true);
      expect((await userinfo(realm.host, tokens.access_token)).status).toBe(401);
      await expect(verifyJwt(realm.host, tokens.access_token, web.ClientId)).rejects.toMatchObject({ claim: 'aud' });
      // And an ID token is no access token for the API.
      const user = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid');
      await expect(verifyJwt(realm.host, user.id_token!, MANAGEMENT_AUDIENCE)).rejects.toMatchObject({ claim: 'aud' });
    });

    it('an expired access token (stored expiry passed): inactive, and 401 at userinfo', async () => {
      const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid');
      expect(isJwt(tokens.access_token)).toBe(false);
      // Time cannot be moved in the server, so the stored token is aged instead: the engine's
      // adapter treats a row past its expiry as gone.
      const [row] = await realmSql<{ createdAt: unknown }>(realm.slug, 'SELECT "createdAt" FROM "OidcPayload" WHERE "model" = $1 AND "id" = $2', [
        'AccessToken',
        engineKey(tokens.access_token),
      ]);
      expect(row).toBeTruthy();
      await realmSql(realm.slug, 'UPDATE "OidcPayload" SET "expiresAt" = $1 WHERE "model" = $2 AND "id" = $3', [
        shiftedLike(row.createdAt, -60_000),
        'AccessToken',
        engineKey(tokens.access_token),
      ]);
      expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(false);
      expect((await userinfo(realm.host, tokens.access_token)).status).toBe(401);
    });

    it('an expired access token (its own exp passed, the row still there): the engine refuses it too', async () => {
      const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid');
      const [row] = await realmSql<{ payload: string }>(realm.slug, 'SELECT "payload" FROM "OidcPayload" WHERE "model" = $1 AND "id" = $2', [
        'AccessToken',
        engineKey(tokens.access_token),
      ]);
      const payload = JSON.parse(row.payload) as { iat: number; exp: number };
      const aged = { ...payload, iat: payload.iat - 7200, exp: payload.iat - 3600 };
      await realmSql(realm.slug, 'UPDATE "OidcPayload" SET "payload" = $1 WHERE "model" = $2 AND "id" = $3', [
        JSON.stringify(aged),
        'AccessToken',
        engineKey(tokens.access_token),
      ]);
      expect((await oidc.tokenIntrospection(webConfig, tokens.access_token)).active).toBe(false);
      expect((await userinfo(realm.host, tokens.access_token)).status).toBe(401);
    });

    it('an expired refresh token: invalid_grant', async () => {
      const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid offline_access');
      const [row] = await realmSql<{ payload: string }>(realm.slug, 'SELECT "payload" FROM "OidcPayload" WHERE "model" = $1 AND "id" = $2', [
        'RefreshToken',
        engineKey(tokens.refresh_token!),
      ]);
      const payload = JSON.parse(row.payload) as { iat: number; exp: number };
      await realmSql(realm.slug, 'UPDATE "OidcPayload" SET "payload" = $1 WHERE "model" = $2 AND "id" = $3', [
        JSON.stringify({ ...payload, exp: payload.iat - 3600 }),
        'RefreshToken',
        engineKey(tokens.refresh_token!),
      ]);
      expect(await oauthError(oidc.refreshTokenGrant(webConfig, tokens.refresh_token!))).toBe('invalid_grant');
    });

    it('a reference client-credentials token past its expiry is inactive', async () => {
      const ref = await createClient(realm.host, realm.admin.jar, {
        DisplayName: 'Ref',
        ClientType: 'Confidential',
        AccessTokenType: 'Reference',
        GrantTypes: ['client_credentials'],
        Scopes: [MANAGEMENT_SCOPE],
      });
      const config = await rp(realm.host, ref.ClientId, ref.ClientSecret);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE });
      expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
      const [row] = await realmSql<{ createdAt: unknown }>(realm.slug, 'SELECT "createdAt" FROM "OidcPayload" WHERE "model" = $1 AND "id" = $2', [
        'ClientCredentials',
        engineKey(tokens.access_token),
      ]);
      await realmSql(realm.slug, 'UPDATE "OidcPayload" SET "expiresAt" = $1 WHERE "model" = $2 AND "id" = $3', [
        shiftedLike(row.createdAt, -60_000),
        'ClientCredentials',
        engineKey(tokens.access_token),
      ]);
      expect(await oidc.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
    });
  });

  describe('realms are separate issuers', () => {
    let other: OAuthRealm;

    beforeAll(async () => {
      other = await oauthRealm();
    });

    it('a client of realm A at realm B’s token endpoint: invalid_client', async () => {
      const cc = await createClient(realm.host, realm.admin.jar, {
        DisplayName: 'Job',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        Scopes: [MANAGEMENT_SCOPE],
      });
      const atB = await rp(other.host, cc.ClientId, cc.ClientSecret);
      expect(atB.serverMetadata().issuer).toBe(issuerOf(other.host));
      expect(await oauthFailure(oidc.clientCredentialsGrant(atB, { scope: MANAGEMENT_SCOPE }))).toMatchObject({ error: 'invalid_client', status: 401 });
    });

    it('a client of realm A at realm B’s authorization endpoint: the error page', async () => {
      const res = await api(
        other.host,
        'GET',
        `/connect/authorize?${new URLSearchParams({ client_id: web.ClientId, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid' })}`,
        {
          cookie: other.admin.jar,
          headers: { accept: 'text/html' },
        },
      );
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('invalid_client');
    });

    it('realm A’s tokens mean nothing at realm B: userinfo 401, introspection inactive, JWTs fail B’s keys', async () => {
      const tokens = await codeFlowTokens(realm.host, webConfig, realm.admin.jar, 'openid');
      expect((await userinfo(other.host, tokens.access_token)).status).toBe(401);
      const bClient = await createClient(other.host, other.admin.jar, { DisplayName: 'B job', ClientType: 'Confidential', GrantTypes: ['client_credentials'] });
      const bConfig = await rp(other.host, bClient.ClientId, bClient.ClientSecret);
      expect(await oidc.tokenIntrospection(bConfig, tokens.access_token)).toEqual({ active: false });
      // Signed by A: B's keys do not verify it (and the issuer differs anyway).
      await expect(verifyJwt(other.host, tokens.id_token!, web.ClientId)).rejects.toBeTruthy();
      const { payload } = await verifyJwt(realm.host, tokens.id_token!, web.ClientId);
      expect(payload.iss).not.toBe(issuerOf(other.host));
    });
  });
});

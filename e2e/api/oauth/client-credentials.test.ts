import { decodeProtectedHeader } from 'jose';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeAccount, makeCredential } from '../service-accounts/fixtures';
import { api } from '../support/harness';
import { createClient, issuerOf } from '../support/oauth';
import { engineKey, realmSql } from '../support/realm-sql';
import { isJwt, oauthError, MANAGEMENT_AUDIENCE, MANAGEMENT_SCOPE, oauthRealm, rp, shiftedLike, verifyJwt, type OAuthRealm } from './fixtures';

// Client credentials (issue 4.3, 4.4): JWT access tokens signed ES256 for the API the scopes name,
// reference tokens that only introspection can read, service-account credentials as clients, and
// the credentials the engine must refuse (expired, deactivated account).

describe('client credentials grant', () => {
  let realm: OAuthRealm;
  let jwtClient: { ClientId: string; ClientSecret?: string };
  let jwtConfig: oidc.Configuration;

  beforeAll(async () => {
    realm = await oauthRealm();
    jwtClient = await createClient(realm.host, realm.admin.jar, {
      DisplayName: 'Backend job',
      ClientType: 'Confidential',
      GrantTypes: ['client_credentials'],
      Scopes: [MANAGEMENT_SCOPE],
    });
    jwtConfig = await rp(realm.host, jwtClient.ClientId, jwtClient.ClientSecret);
  });

  it('discovery advertises the grant and the endpoints it needs', () => {
    const m = jwtConfig.serverMetadata();
    expect(m.grant_types_supported).toContain('client_credentials');
    expect(m.introspection_endpoint).toBe(`${issuerOf(realm.host)}/connect/introspect`);
    expect(m.revocation_endpoint).toBe(`${issuerOf(realm.host)}/connect/revocation`);
  });

  it('with an explicit resource: a JWT for the API, signed ES256, verified against the JWKS', async () => {
    const tokens = await oidc.clientCredentialsGrant(jwtConfig, { scope: MANAGEMENT_SCOPE, resource: MANAGEMENT_AUDIENCE });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe(MANAGEMENT_SCOPE);
    expect(tokens.expires_in).toBeGreaterThan(0);
    expect(tokens.refresh_token).toBeUndefined();
    expect(isJwt(tokens.access_token)).toBe(true);
    expect(decodeProtectedHeader(tokens.access_token)).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    const { payload } = await verifyJwt(realm.host, tokens.access_token, MANAGEMENT_AUDIENCE);
    expect(payload).toMatchObject({ client_id: jwtClient.ClientId, scope: MANAGEMENT_SCOPE, aud: MANAGEMENT_AUDIENCE });
    // A client acts for itself: no end user in the token.
    expect(payload.sub).toBe(jwtClient.ClientId);
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it('with only the scope: the API the scope belongs to is the audience', async () => {
    const tokens = await oidc.clientCredentialsGrant(jwtConfig, { scope: MANAGEMENT_SCOPE });
    expect(isJwt(tokens.access_token)).toBe(true);
    const { payload } = await verifyJwt(realm.host, tokens.access_token, MANAGEMENT_AUDIENCE);
    expect(payload.scope).toBe(MANAGEMENT_SCOPE);
  });

  it('a token for the API does not verify for another audience, and an unknown resource is invalid_target', async () => {
    const tokens = await oidc.clientCredentialsGrant(jwtConfig, { scope: MANAGEMENT_SCOPE });
    await expect(verifyJwt(realm.host, tokens.access_token, 'urn:some:other-api')).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
      claim: 'aud',
    });
    expect(await oauthError(oidc.clientCredentialsGrant(jwtConfig, { scope: MANAGEMENT_SCOPE, resource: 'urn:no:such-api' }))).toBe('invalid_target');
  });

  it('a scope the client was not given is invalid_scope', async () => {
    expect(await oauthError(oidc.clientCredentialsGrant(jwtConfig, { scope: `${MANAGEMENT_SCOPE} profile` }))).toBe('invalid_scope');
  });

  it('a Reference client gets an opaque token that introspection reports with its audience and scope', async () => {
    const client = await createClient(realm.host, realm.admin.jar, {
      DisplayName: 'Reference backend',
      ClientType: 'Confidential',
      AccessTokenType: 'Reference',
      GrantTypes: ['client_credentials'],
      Scopes: [MANAGEMENT_SCOPE],
    });
    const config = await rp(realm.host, client.ClientId, client.ClientSecret);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE, resource: MANAGEMENT_AUDIENCE });
    expect(isJwt(tokens.access_token)).toBe(false);
    expect(tokens.access_token.length).toBeGreaterThanOrEqual(43);

    const info = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(info).toMatchObject({
      active: true,
      client_id: client.ClientId,
      aud: MANAGEMENT_AUDIENCE,
      scope: MANAGEMENT_SCOPE,
      iss: issuerOf(realm.host),
      token_type: 'Bearer',
    });
    expect(info.exp! - info.iat!).toBe(3600);
    // Only the token's id is stored (as its digest), never as a JWT.
    const [row] = await realmSql<{ model: string }>(realm.slug, 'SELECT "model" FROM "OidcPayload" WHERE "id" = $1', [engineKey(tokens.access_token)]);
    expect(row?.model).toBe('ClientCredentials');
  });

  describe('service-account credentials', () => {
    it('a credential is a client: it gets a Management API token', async () => {
      const account = await makeAccount(realm.host, realm.admin.jar);
      const cred = await makeCredential(realm.host, realm.admin.jar, account.id, { Scopes: [MANAGEMENT_SCOPE] });
      const config = await rp(realm.host, cred.clientId, cred.secret);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE });
      const { payload } = await verifyJwt(realm.host, tokens.access_token, MANAGEMENT_AUDIENCE);
      expect(payload).toMatchObject({ client_id: cred.clientId, scope: MANAGEMENT_SCOPE });
    });

    it('a credential with no scopes (the default) works, and may ask for none', async () => {
      const account = await makeAccount(realm.host, realm.admin.jar);
      const cred = await makeCredential(realm.host, realm.admin.jar, account.id);
      const config = await rp(realm.host, cred.clientId, cred.secret);
      const tokens = await oidc.clientCredentialsGrant(config);
      expect(tokens.scope).toBeUndefined();
      expect(await oauthError(oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE }))).toBe('invalid_scope');
      expect(await oauthError(oidc.clientCredentialsGrant(config, { scope: 'openid' }))).toBe('invalid_scope');
    });

    it('a rotated credential works with the new secret only', async () => {
      const account = await makeAccount(realm.host, realm.admin.jar);
      const cred = await makeCredential(realm.host, realm.admin.jar, account.id, { Scopes: [MANAGEMENT_SCOPE] });
      await oidc.clientCredentialsGrant(await rp(realm.host, cred.clientId, cred.secret), { scope: MANAGEMENT_SCOPE });
      const rotated = await api(realm.host, 'POST', `/api/service-account/${account.id}/credentials/${cred.id}/rotate`, { cookie: realm.admin.jar });
      expect(rotated.status, rotated.text).toBe(200);
      expect(await oauthError(oidc.clientCredentialsGrant(await rp(realm.host, cred.clientId, cred.secret), { scope: MANAGEMENT_SCOPE }))).toBe(
        'invalid_client',
      );
      const fresh = await oidc.clientCredentialsGrant(await rp(realm.host, cred.clientId, rotated.body.ClientSecret), { scope: MANAGEMENT_SCOPE });
      expect(isJwt(fresh.access_token)).toBe(true);
    });

    it('an expired credential is invalid_client', async () => {
      const account = await makeAccount(realm.host, realm.admin.jar);
      const cred = await makeCredential(realm.host, realm.admin.jar, account.id, { Scopes: [MANAGEMENT_SCOPE] });
      // The API refuses an expiry in the past; the clock is moved by writing one directly, before
      // the engine ever looked the client up (it caches clients briefly).
      const [row] = await realmSql<{ createdAt: unknown }>(realm.slug, 'SELECT "createdAt" FROM "ServiceAccountCredential" WHERE "id" = $1', [cred.id]);
      await realmSql(realm.slug, 'UPDATE "ServiceAccountCredential" SET "expiresAt" = $1 WHERE "id" = $2', [shiftedLike(row.createdAt, -3_600_000), cred.id]);
      const config = await rp(realm.host, cred.clientId, cred.secret);
      expect(await oauthError(oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE }))).toBe('invalid_client');
    });

    it('a deactivated account’s credential is invalid_client until the account is active again', async () => {
      const account = await makeAccount(realm.host, realm.admin.jar);
      const cred = await makeCredential(realm.host, realm.admin.jar, account.id, { Scopes: [MANAGEMENT_SCOPE] });
      const config = await rp(realm.host, cred.clientId, cred.secret);
      const before = await oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE });
      expect(isJwt(before.access_token)).toBe(true);

      const off = await api(realm.host, 'PUT', `/api/service-account/${account.id}`, { cookie: realm.admin.jar, body: { IsActive: false } });
      expect(off.status, off.text).toBe(200);
      expect(await oauthError(oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE }))).toBe('invalid_client');

      const on = await api(realm.host, 'PUT', `/api/service-account/${account.id}`, { cookie: realm.admin.jar, body: { IsActive: true } });
      expect(on.status, on.text).toBe(200);
      await oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE });
    });
  });
});

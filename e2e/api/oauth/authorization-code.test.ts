import { createLocalJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdmin, createRealm, type SignedIn } from '../support/harness';
import { createClient, discover, fetchJwks, followAsBrowser, issuerOf } from '../support/oauth';

// Authorization code with PKCE through a real relying party (issue 4.2-4.4): discovery, the sign-in
// bridge with an existing browser session, tokens verified against the JWKS, userinfo with roles and
// permissions, refresh rotation and reuse detection.
const REDIRECT = 'http://127.0.0.1:9/callback';

describe('authorization code flow', () => {
  let host: string;
  let admin: SignedIn;
  let client: { ClientId: string; ClientSecret?: string };
  let config: oidc.Configuration;

  beforeAll(async () => {
    ({ host } = await createRealm());
    admin = await bootstrapAdmin(host.split('.')[0]);
    client = await createClient(host, admin.jar, {
      ClientId: 'web-app',
      DisplayName: 'Web app',
      ClientType: 'Confidential',
      ConsentType: 'Implicit',
      RedirectUris: [REDIRECT],
      GrantTypes: ['authorization_code', 'refresh_token'],
      Scopes: ['openid', 'profile', 'email', 'offline_access', 'roles', 'permissions'],
    });
    config = await discover(host, client.ClientId, client.ClientSecret);
  });

  async function signInThroughEngine(scope: string) {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      prompt: 'consent',
    });
    const { location, hops } = await followAsBrowser(host, url.pathname + url.search, admin.jar);
    expect(location.origin + location.pathname, hops.join(' -> ')).toBe(REDIRECT);
    return oidc.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state });
  }

  it('discovery names the realm as issuer and every endpoint under /connect', () => {
    const m = config.serverMetadata();
    expect(m.issuer).toBe(issuerOf(host));
    expect(m.authorization_endpoint).toBe(`${issuerOf(host)}/connect/authorize`);
    expect(m.token_endpoint).toBe(`${issuerOf(host)}/connect/token`);
    expect(m.code_challenge_methods_supported).toEqual(['S256']);
  });

  it('a signed-in browser comes back with a code; the tokens verify against the JWKS', async () => {
    const tokens = await signInThroughEngine('openid profile email offline_access roles permissions');
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(admin.userId);
    expect(claims.iss).toBe(issuerOf(host));
    expect(tokens.refresh_token).toBeTruthy();
    const keys = await fetchJwks(host);
    expect(keys.keys.map((k) => k.kty).sort()).toEqual(['EC', 'RSA']);
    expect(JSON.stringify(keys)).not.toMatch(/"d":/);
    const verified = await jwtVerify(tokens.id_token!, createLocalJWKSet(keys), { issuer: issuerOf(host), audience: client.ClientId });
    expect(verified.payload.sub).toBe(admin.userId);

    const info = await oidc.fetchUserInfo(config, tokens.access_token, admin.userId!);
    expect(info.preferred_username).toBe(admin.userName);
    expect(info.email).toBe(admin.email);
    expect(info.permissions).toContain('realm:admin');
    expect(Array.isArray(info.roles)).toBe(true);
  });

  it('refresh tokens rotate, and reusing a spent one revokes the whole family', async () => {
    const first = await signInThroughEngine('openid offline_access');
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    expect(second.refresh_token).toBeTruthy();
    expect(second.refresh_token).not.toBe(first.refresh_token);
    await expect(oidc.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The reuse revoked the family: the newest refresh token is dead too.
    await expect(oidc.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('pushed authorization requests (RFC 9126) work end to end', async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = await oidc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      state,
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    expect(url.searchParams.get('scope')).toBeNull();
    const { location, hops } = await followAsBrowser(host, url.pathname + url.search, admin.jar);
    expect(location.origin + location.pathname, hops.join(' -> ')).toBe(REDIRECT);
    const tokens = await oidc.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()!.sub).toBe(admin.userId);
  });

  it('max_age: an old enough session is sent to sign in again', async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    await new Promise((r) => setTimeout(r, 1100));
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      state: 's',
      max_age: '0',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const { location } = await followAsBrowser(host, url.pathname + url.search, admin.jar, /^\/login$/);
    expect(location.pathname).toBe('/login');
    expect(location.searchParams.get('reauth')).toBe('1');
    expect(location.searchParams.get('redirect')).toMatch(/^\/connect\/interaction\//);
  });

  it('max_age: a session younger than max_age goes straight through', async () => {
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      state: 's',
      max_age: '3600',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const { location, hops } = await followAsBrowser(host, url.pathname + url.search, admin.jar);
    expect(location.origin + location.pathname, hops.join(' -> ')).toBe(REDIRECT);
  });
});

import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/harness';
import { issuerOf, realmFetch } from '../support/oauth';
import { realmSql } from '../support/realm-sql';
import { authorize, browse, oauthRealm, REDIRECT, rp, verifyJwt, type OAuthRealm } from './fixtures';

// Dynamic client registration (RFC 7591/7592, issue 4.1): off unless the realm's Dcr.Enabled
// setting says so (the engine is rebuilt on the realm-settings event); a registered client is an
// OAuthClient like any other, listed by the admin API and usable at once.

describe('dynamic client registration', () => {
  let realm: OAuthRealm;

  beforeAll(async () => {
    realm = await oauthRealm();
  });

  const rpOptions = () => ({ execute: [oidc.allowInsecureRequests], [oidc.customFetch]: realmFetch() });

  async function setDcr(enabled: boolean) {
    const res = await api(realm.host, 'PATCH', '/api/realm-settings', { cookie: realm.admin.jar, body: { Dcr: { Enabled: enabled } } });
    expect(res.status, res.text).toBe(200);
  }

  function register(metadata: Partial<oidc.ClientMetadata>) {
    return oidc.dynamicClientRegistration(new URL(issuerOf(realm.host)), metadata, undefined, rpOptions());
  }

  it('is off by default: no registration endpoint, and /connect/register is not found', async () => {
    const m = (await api(realm.host, 'GET', '/.well-known/openid-configuration')).body;
    expect(m.registration_endpoint).toBeUndefined();
    const res = await api(realm.host, 'POST', '/connect/register', { body: { redirect_uris: [REDIRECT] } });
    expect(res.status).toBe(404);
    expect(await realmSql(realm.slug, 'SELECT "id" FROM "OAuthClient" WHERE "isDynamic" = $1', [true])).toEqual([]);
  });

  describe('when the realm turns it on', () => {
    beforeAll(async () => {
      await setDcr(true);
    });

    it('discovery advertises the endpoint', async () => {
      const m = (await api(realm.host, 'GET', '/.well-known/openid-configuration')).body;
      expect(m.registration_endpoint).toBe(`${issuerOf(realm.host)}/connect/register`);
    });

    it("Gatehouse's own API scopes cannot be registered dynamically", async () => {
      for (const scope of ['gatehouse.management', 'invite:write']) {
        const res = await api(realm.host, 'POST', '/connect/register', {
          body: { grant_types: ['client_credentials'], response_types: [], scope, token_endpoint_auth_method: 'client_secret_basic' },
        });
        expect(res.status, res.text).toBe(400);
        expect(res.body.error).toBe('invalid_client_metadata');
      }
    });

    it('a registered confidential client gets client-credentials tokens at once and is listed by the admin API', async () => {
      const audience = `urn:example:orders:${Date.now()}`;
      const apiRes = await api(realm.host, 'POST', '/api/admin/oauth/apis', {
        cookie: realm.admin.jar,
        body: { Name: `Orders ${audience}`, Audience: audience },
      });
      expect(apiRes.status, apiRes.text).toBe(201);
      const scopeName = `orders.read.${Date.now()}`;
      const scopeRes = await api(realm.host, 'POST', '/api/admin/oauth/scopes', { cookie: realm.admin.jar, body: { Name: scopeName, Resources: [audience] } });
      expect(scopeRes.status, scopeRes.text).toBe(201);
      const config = await register({
        client_name: 'Registered job',
        grant_types: ['client_credentials'],
        response_types: [],
        scope: scopeName,
        token_endpoint_auth_method: 'client_secret_basic',
      });
      const meta = config.clientMetadata();
      expect(meta.client_id).toBeTruthy();
      expect(typeof meta.client_secret).toBe('string');
      const tokens = await oidc.clientCredentialsGrant(config, { scope: scopeName });
      const { payload } = await verifyJwt(realm.host, tokens.access_token, audience);
      expect(payload.client_id).toBe(meta.client_id);

      const list = await api(realm.host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: realm.admin.jar });
      expect(list.status, list.text).toBe(200);
      const listed = list.body.items.find((c: { ClientId: string }) => c.ClientId === meta.client_id);
      expect(listed).toMatchObject({
        DisplayName: 'Registered job',
        ClientType: 'Confidential',
        GrantTypes: ['client_credentials'],
        Scopes: [scopeName],
        IsDynamic: true,
        IsActive: true,
      });
      // Only the secret's digest is stored, as for every client.
      expect(JSON.stringify(await realmSql(realm.slug, 'SELECT * FROM "OAuthClient" WHERE "clientId" = $1', [meta.client_id]))).not.toContain(
        String(meta.client_secret),
      );
    });

    it('a registered public client signs a person in with the code flow (after the consent step)', async () => {
      const config = await register({
        client_name: 'Registered SPA',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope: 'openid profile',
      });
      const clientId = config.clientMetadata().client_id;
      expect(config.clientMetadata().client_secret).toBeUndefined();
      const rpConfig = await rp(realm.host, clientId);
      const a = await authorize(realm.host, rpConfig, realm.admin.jar, 'openid profile');
      // Registered clients are Explicit-consent: the hosted consent page asks; its form posts here.
      expect(a.callback.pathname, a.page.hops.join(' -> ')).toBe('/consent');
      const uid = a.callback.searchParams.get('uid')!;
      const confirmed = await api(realm.host, 'POST', `/connect/interaction/${uid}/confirm`, {
        cookie: realm.admin.jar,
        headers: { origin: issuerOf(realm.host), accept: 'text/html' },
      });
      expect(confirmed.status, confirmed.text).toBeGreaterThanOrEqual(300);
      const back = await browse(realm.host, confirmed.headers.location!, realm.admin.jar);
      expect(back.url.origin + back.url.pathname, back.hops.join(' -> ')).toBe(REDIRECT);
      const tokens = await oidc.authorizationCodeGrant(rpConfig, back.url, { pkceCodeVerifier: a.verifier, expectedState: a.state });
      expect(tokens.claims()?.sub).toBe(realm.admin.userId);
      await verifyJwt(realm.host, tokens.id_token!, clientId);
    });

    it('registration management (RFC 7592): the client reads its record back with the registration access token', async () => {
      const config = await register({
        client_name: 'Managed',
        grant_types: ['client_credentials'],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      });
      const meta = config.clientMetadata();
      expect(typeof meta.registration_access_token).toBe('string');
      const uri = new URL(String(meta.registration_client_uri));
      expect(uri.origin + uri.pathname).toBe(`${issuerOf(realm.host)}/connect/register/${meta.client_id}`);
      const read = await api(realm.host, 'GET', uri.pathname, { headers: { authorization: `Bearer ${meta.registration_access_token}` } });
      expect(read.status, read.text).toBe(200);
      expect(read.body).toMatchObject({ client_id: meta.client_id, client_name: 'Managed', grant_types: ['client_credentials'] });
      // Without the token, nothing.
      expect((await api(realm.host, 'GET', uri.pathname)).status).toBe(401);
      // The client can delete itself; the admin API no longer lists it.
      const gone = await api(realm.host, 'DELETE', uri.pathname, { headers: { authorization: `Bearer ${meta.registration_access_token}` } });
      expect(gone.status, gone.text).toBe(204);
      const list = await api(realm.host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: realm.admin.jar });
      expect(list.body.items.map((c: { ClientId: string }) => c.ClientId)).not.toContain(meta.client_id);
    });

    // The engine holds only the secret's digest; reads must not hand it out as the secret
    // (lib/oidc/internals.ts). An RFC 7592 update that sends the real secret is still refused.
    it('registration management never answers with the stored digest as the secret', async () => {
      const config = await register({
        client_name: 'Managed',
        grant_types: ['client_credentials'],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
      });
      const meta = config.clientMetadata();
      const uri = new URL(String(meta.registration_client_uri));
      const read = await api(realm.host, 'GET', uri.pathname, { headers: { authorization: `Bearer ${meta.registration_access_token}` } });
      const [row] = await realmSql<{ secretHash: string }>(realm.slug, 'SELECT "secretHash" FROM "OAuthClient" WHERE "clientId" = $1', [meta.client_id]);
      expect(read.text).not.toContain(row.secretHash);
      if (read.body.client_secret !== undefined) expect(read.body.client_secret).toBe(meta.client_secret);
    });

    it('a client registered with a redirect URI it does not control cannot be made to redirect elsewhere', async () => {
      const config = await register({
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      });
      const res = await api(
        realm.host,
        'GET',
        `/connect/authorize?${new URLSearchParams({ client_id: config.clientMetadata().client_id, redirect_uri: 'https://evil.example.com/cb', response_type: 'code', scope: 'openid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`,
        { cookie: realm.admin.jar, headers: { accept: 'text/html' } },
      );
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
    });

    // Issue 8 item 11: the admin API's redirect-URI rules apply to registrations too, or a client
    // registered with http://attacker.example/ turns prompt=none into an open redirect.
    it('redirect URIs follow the admin API rules: http only on loopback hosts, no fragments, no odd schemes', async () => {
      const before = (await realmSql(realm.slug, 'SELECT "id" FROM "OAuthClient" WHERE "isDynamic" = $1', [true])).length;
      for (const uri of ['http://attacker.example/cb', 'https://app.example.com/cb#frag', 'javascript:alert(1)', 'https://user:pw@app.example.com/cb']) {
        const res = await api(realm.host, 'POST', '/connect/register', {
          body: { redirect_uris: [uri], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' },
        });
        expect(res.status, `${uri}: ${res.text}`).toBe(400);
        expect(['invalid_redirect_uri', 'invalid_client_metadata']).toContain(res.body.error);
      }
      const logout = await api(realm.host, 'POST', '/connect/register', {
        body: {
          redirect_uris: [REDIRECT],
          post_logout_redirect_uris: ['http://attacker.example/out'],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
      });
      expect(logout.status, logout.text).toBe(400);
      expect((await realmSql(realm.slug, 'SELECT "id" FROM "OAuthClient" WHERE "isDynamic" = $1', [true])).length).toBe(before);
      // What the admin API accepts, registration accepts.
      const ok = await api(realm.host, 'POST', '/connect/register', {
        body: {
          redirect_uris: ['https://app.example.com/cb', 'http://127.0.0.1:8080/cb'],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
      });
      expect(ok.status, ok.text).toBe(201);
    });

    it('an RFC 7592 update cannot bring an http:// redirect URI on a public host in either', async () => {
      const created = await api(realm.host, 'POST', '/connect/register', {
        body: {
          redirect_uris: ['https://app.example.com/cb'],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
      });
      expect(created.status, created.text).toBe(201);
      const uri = new URL(String(created.body.registration_client_uri));
      const auth = { authorization: `Bearer ${created.body.registration_access_token}` };
      const update = await api(realm.host, 'PUT', uri.pathname, {
        headers: auth,
        body: {
          client_id: created.body.client_id,
          redirect_uris: ['http://attacker.example/cb'],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        },
      });
      expect(update.status, update.text).toBe(400);
      const [row] = await realmSql<{ redirectUris: string }>(realm.slug, 'SELECT "redirectUris" FROM "OAuthClient" WHERE "clientId" = $1', [
        created.body.client_id,
      ]);
      expect(JSON.parse(row.redirectUris)).toEqual(['https://app.example.com/cb']);
      // prompt=none to the registered URI of a public host: the error goes only where https allows.
      const res = await api(
        realm.host,
        'GET',
        `/connect/authorize?${new URLSearchParams({ client_id: created.body.client_id, redirect_uri: 'http://attacker.example/cb', response_type: 'code', scope: 'openid', prompt: 'none', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })}`,
        { headers: { accept: 'text/html' } },
      );
      expect(res.headers.location ?? '').not.toContain('attacker.example');
    });

    it('turning it off again closes the endpoint; registered clients stay', async () => {
      const config = await register({ grant_types: ['client_credentials'], response_types: [], token_endpoint_auth_method: 'client_secret_basic' });
      await setDcr(false);
      const res = await api(realm.host, 'POST', '/connect/register', { body: { redirect_uris: [REDIRECT] } });
      expect(res.status).toBe(404);
      expect((await api(realm.host, 'GET', '/.well-known/openid-configuration')).body.registration_endpoint).toBeUndefined();
      const tokens = await oidc.clientCredentialsGrant(await rp(realm.host, config.clientMetadata().client_id, String(config.clientMetadata().client_secret)));
      expect(tokens.access_token).toBeTruthy();
    });
  });
});

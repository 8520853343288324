import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchSettings } from '../mfa/fixtures';
import { api, bootstrapAdmin, createRealm, suite, type SignedIn } from '../support/harness';
import { startMetadataHost, type MetadataHost } from '../support/metadata-host';
import { issuerOf } from '../support/oauth';
import { createTestApp } from '../support/test-apps';
import { authorize, browse, REDIRECT, rp, verifyJwt } from './fixtures';

/** A document is fetched once and then cached, by each instance that needs it (one, unless the suite runs several). */
function expectFetchedOncePerInstance(hits: number): void {
  expect(hits).toBeGreaterThanOrEqual(1);
  expect(hits).toBeLessThanOrEqual(suite().instances);
}

// OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; docs/oauth.md):
// with the `Cimd` setting on for the App of the request's Host, a client_id that is an https URL
// names a JSON document the realm fetches and uses as the client's metadata. The documents are
// served by an https server this file starts on 127.0.0.1 (the test server trusts its certificate
// and may fetch from loopback: GATEHOUSE_OUTBOUND_ALLOW, support/server-process.ts).
// openid-client is the relying party, with the document's URL as its client_id.

const SCOPE = 'openid profile';

describe('Client ID Metadata Documents', () => {
  let realm: { slug: string; domain: string; host: string };
  let admin: SignedIn;
  let docs: MetadataHost;
  let n = 0;

  /** A fresh path (the realm caches a fetched document) with a valid document, `extra` on top. */
  const publish = (extra: Record<string, unknown> = {}, path = `/clients/${++n}/metadata.json`) => {
    const url = docs.url(path);
    docs.publish(path, {
      client_id: url,
      client_name: 'Field Notes',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...extra,
    });
    return { url, path };
  };
  /** A raw answer at a fresh path; the client_id is its URL. */
  const publishRaw = (answer: Parameters<MetadataHost['publish']>[1]) => {
    const path = `/clients/${++n}/metadata.json`;
    docs.publish(path, answer);
    return { url: docs.url(path), path };
  };
  /** An authorization request from openid-client for `clientId` at `host`, walked as the signed-in admin's browser. */
  const authorizeAs = async (clientId: string, host = realm.host, params: Record<string, string> = {}) =>
    authorize(host, await rp(realm.host, clientId), admin.jar, SCOPE, params);
  /** The engine's error page: status, and the OAuth error named on it. */
  const refusal = async (clientId: string, params: Record<string, string> = {}) => {
    const a = await authorizeAs(clientId, realm.host, params);
    expect(a.page.res.headers.location, 'no redirect to the client on a refusal').toBeUndefined();
    return { status: a.page.res.status, text: a.page.res.text };
  };
  const serverLog = () =>
    readdirSync(suite().logDir)
      .filter((f) => f.endsWith('.log'))
      .map((f) => readFileSync(join(suite().logDir, f), 'utf8'))
      .join('\n');

  beforeAll(async () => {
    realm = await createRealm();
    admin = await bootstrapAdmin(realm.slug);
    docs = await startMetadataHost();
  });

  afterAll(async () => {
    await docs?.stop();
  });

  it('is off by default: not advertised, and a URL client_id is an unknown client that is never fetched', async () => {
    expect((await api(realm.host, 'GET', '/.well-known/openid-configuration')).body.client_id_metadata_document_supported).toBeUndefined();
    const { url, path } = publish();
    const r = await refusal(url);
    expect(r.status).toBe(400);
    expect(r.text).toContain('invalid_client');
    expect(docs.hits(path)).toBe(0);
  });

  describe('turned on for the realm', () => {
    beforeAll(async () => {
      await patchSettings(realm.host, admin.jar, { Cimd: { Enabled: true } });
    });

    it('discovery advertises it', async () => {
      const m = (await api(realm.host, 'GET', '/.well-known/openid-configuration')).body;
      expect(m.client_id_metadata_document_supported).toBe(true);
    });

    it('openid-client signs a person in with the code flow and PKCE; the person approves the client named by its document; the document is fetched once', async () => {
      // Trusted properties in a document count for nothing: Implicit consent is not granted.
      const { url, path } = publish({ consent_type: 'Implicit', capabilities: ['cap:introspect-any'] });
      const config = await rp(realm.host, url);
      const a = await authorize(realm.host, config, admin.jar, SCOPE);
      expect(a.callback.pathname, a.page.hops.join(' -> ')).toBe('/consent');
      const page = await api(realm.host, 'GET', a.callback.pathname + a.callback.search, { cookie: admin.jar, headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.text).toContain('Allow Field Notes?');
      expect(page.text).toContain(new URL(url).host);

      const uid = a.callback.searchParams.get('uid')!;
      const confirmed = await api(realm.host, 'POST', `/connect/interaction/${uid}/confirm`, {
        cookie: admin.jar,
        headers: { origin: issuerOf(realm.host), accept: 'text/html' },
      });
      expect(confirmed.status, confirmed.text).toBeGreaterThanOrEqual(300);
      const back = await browse(realm.host, confirmed.headers.location!, admin.jar);
      expect(back.url.origin + back.url.pathname, back.hops.join(' -> ')).toBe(REDIRECT);
      const tokens = await oidc.authorizationCodeGrant(config, back.url, { pkceCodeVerifier: a.verifier, expectedState: a.state });
      expect(tokens.claims()?.sub).toBe(admin.userId);
      const { payload } = await verifyJwt(realm.host, tokens.id_token!, url);
      expect(payload.aud).toBe(url);
      const info = await oidc.fetchUserInfo(config, tokens.access_token, admin.userId!);
      expect(info.sub).toBe(admin.userId);
      // Cached (Cache-Control max-age=60): the authorization, consent and token requests fetched it once.
      expectFetchedOncePerInstance(docs.hits(path));
    });

    it('without PKCE the public client is refused', async () => {
      const { url } = publish();
      const res = await api(
        realm.host,
        'GET',
        `/connect/authorize?${new URLSearchParams({ client_id: url, redirect_uri: REDIRECT, response_type: 'code', scope: 'openid' })}`,
        { cookie: admin.jar, headers: { accept: 'text/html' } },
      );
      expect([302, 303], res.text).toContain(res.status);
      expect(new URL(res.headers.location!).searchParams.get('error')).toBe('invalid_request');
    });

    it('a document whose client_id is not exactly its URL is refused', async () => {
      const { url } = publish({ client_id: `${docs.url('/clients/other/metadata.json')}` });
      const r = await refusal(url);
      expect(r.status).toBe(400);
      expect(r.text).toContain('invalid_client_metadata');
      expect(r.text).toContain('client_id does not match');
      const { url: trailing } = publish();
      expect((await refusal(`${trailing}?x=1`)).status).toBe(400);
    });

    it('a redirect_uri the document does not list is refused without redirecting', async () => {
      const { url } = publish();
      const r = await refusal(url, { redirect_uri: 'http://127.0.0.1:9/elsewhere' });
      expect(r.status).toBe(400);
      expect(r.text).toContain('invalid_redirect_uri');
    });

    it('a document asking for a shared secret, other grants only, Gatehouse’s own scopes or an http redirect URI of a public host is refused', async () => {
      for (const extra of [
        { token_endpoint_auth_method: 'client_secret_post' },
        { grant_types: ['client_credentials'], response_types: [] },
        { scope: 'openid gatehouse.management' },
        { redirect_uris: ['http://attacker.example/cb'] },
      ]) {
        const { url } = publish(extra);
        const r = await refusal(url, extra.redirect_uris ? { redirect_uri: extra.redirect_uris[0] } : {});
        expect(r.status, JSON.stringify(extra)).toBe(400);
        expect(r.text, JSON.stringify(extra)).toMatch(/invalid_client_metadata|invalid_redirect_uri/);
      }
    });

    it('an oversized, non-JSON, missing, redirecting, slow or unreachable document is refused with a clear error, logged, and not fetched again at once', async () => {
      const big = publish({ client_name: 'x'.repeat(6 * 1024) });
      const missing = `/clients/${++n}/missing.json`;
      const slow = publishRaw({ headers: { 'content-type': 'application/json' }, body: '{}', delayMs: 4000 });
      const cases = [
        big.url,
        publishRaw({ headers: { 'content-type': 'text/html' }, body: '<html>not json</html>' }).url,
        docs.url(missing),
        publishRaw({ status: 302, headers: { location: big.url }, body: '' }).url,
        slow.url,
        'https://127.0.0.1:9/clients/unreachable.json',
      ];
      for (const url of cases) {
        const r = await refusal(url);
        expect(r.status, url).toBe(400);
        expect(r.text, url).toContain('invalid_client');
        expect(r.text, url).toContain('client_id metadata document fetch failed');
      }
      const log = serverLog();
      expect(log).toContain('oauth client metadata document refused');
      expect(log).toContain(`"clientId":"${big.url}"`);
      expect(log).toMatch(/response too large/);
      // A failed fetch is remembered for a while: neither the engine's second lookup (to render the
      // error) nor the next request fetches a dead or slow document again.
      expect((await refusal(docs.url(missing))).status).toBe(400);
      expect(docs.hits(missing)).toBe(1);
      expect(docs.hits(slow.path)).toBe(1);
    });

    it('turning it off stops a cached document at once', async () => {
      const { url, path } = publish();
      expect((await authorizeAs(url)).callback.pathname).toBe('/consent');
      await patchSettings(realm.host, admin.jar, { Cimd: { Enabled: false } });
      const r = await refusal(url);
      expect(r.status).toBe(400);
      expect(r.text).toContain('invalid_client');
      expectFetchedOncePerInstance(docs.hits(path));
    });
  });

  describe('per App', () => {
    it('an App that turns it on accepts documents through its host while the realm host refuses them, and the reverse', async () => {
      await patchSettings(realm.host, admin.jar, { Cimd: { Enabled: false } });
      const on = await createTestApp(realm, admin, { Cimd: { Enabled: true } });
      const off = await createTestApp(realm, admin, { Cimd: { Enabled: false } });
      const { url, path } = publish();
      expect((await api(on.host, 'GET', '/.well-known/openid-configuration')).body.client_id_metadata_document_supported).toBe(true);
      // Through the App host the client is known: the browser goes on to sign in (that host has no session).
      const through = await authorizeAs(url, on.host);
      expect(through.page.res.status, through.page.hops.join(' -> ')).toBeLessThan(400);
      expect(through.page.hops.join(' ')).toContain('/connect/interaction/');
      expect((await refusal(url)).status).toBe(400);
      expectFetchedOncePerInstance(docs.hits(path));

      await patchSettings(realm.host, admin.jar, { Cimd: { Enabled: true } });
      const blocked = await authorizeAs(url, off.host);
      expect(blocked.page.res.status).toBe(400);
      expect(blocked.page.res.text).toContain('invalid_client');
      expect((await api(off.host, 'GET', '/.well-known/openid-configuration')).body.client_id_metadata_document_supported).toBeUndefined();
    });
  });
});

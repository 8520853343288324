import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { patchSettings } from '../mfa/fixtures';
import { api, bootstrapAdmin, createRealm, type SignedIn } from '../support/harness';
import { issuerOf, realmFetch } from '../support/oauth';
import { createTestApp, type TestApp } from '../support/test-apps';
import { consentedTokens, REDIRECT, rp } from './fixtures';

// Dynamic client registration per App (RFC 7591/7592; spec 4.7 "Applications": an App's `Dcr`
// section overrides the realm's). /connect/register follows the App the request's Host routes to,
// and a client registered there belongs to that App; its RFC 7592 management follows the client's
// App, wherever it is reached from (lib/oidc/app-gates.ts). The realm's issuer stays the one issuer,
// so a relying party registers through an App host with plain HTTP (discovery there names the
// realm's issuer) and then uses the client against the realm's issuer like any other.

describe('dynamic client registration per App', () => {
  let realm: { slug: string; domain: string; host: string };
  let admin: SignedIn;
  let appOn: TestApp;
  let appOff: TestApp;

  const discovery = async (host: string) => (await api(host, 'GET', '/.well-known/openid-configuration')).body as Record<string, unknown>;
  const registerAt = (host: string, body: Record<string, unknown>) => api(host, 'POST', '/connect/register', { body });
  const listed = async (clientId: string) => {
    const list = await api(realm.host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: admin.jar });
    expect(list.status, list.text).toBe(200);
    return list.body.items.find((c: { ClientId: string }) => c.ClientId === clientId);
  };
  const publicClient = { redirect_uris: [REDIRECT], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' };

  beforeAll(async () => {
    realm = await createRealm();
    admin = await bootstrapAdmin(realm.slug);
    [appOn, appOff] = [await createTestApp(realm, admin, { Dcr: { Enabled: true } }), await createTestApp(realm, admin, { Dcr: { Enabled: false } })];
  });

  describe('the realm has it off, one App turns it on', () => {
    it('only the App host advertises and serves the endpoint', async () => {
      expect((await discovery(realm.host)).registration_endpoint).toBeUndefined();
      expect((await discovery(appOff.host)).registration_endpoint).toBeUndefined();
      expect((await discovery(appOn.host)).registration_endpoint).toBe(`http://${appOn.host}/connect/register`);
      expect((await registerAt(realm.host, publicClient)).status).toBe(404);
      expect((await registerAt(appOff.host, publicClient)).status).toBe(404);
    });

    it('a client registered through the App host belongs to the App, whatever trust it claims, and signs a person in', async () => {
      const res = await registerAt(appOn.host, {
        ...publicClient,
        client_name: 'Shop companion',
        scope: 'openid profile',
        app_id: appOff.id,
        consent_type: 'Implicit',
        capabilities: ['cap:introspect-any'],
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body).toMatchObject({ consent_type: 'Explicit', capabilities: [], app_id: appOn.id });
      const clientId = String(res.body.client_id);
      expect(await listed(clientId)).toMatchObject({
        DisplayName: 'Shop companion',
        AppId: appOn.id,
        ConsentType: 'Explicit',
        Capabilities: [],
        IsDynamic: true,
      });
      // openid-client against the realm's issuer: the person approves on the consent page.
      const tokens = await consentedTokens(realm.host, await rp(realm.host, clientId), admin.jar, 'openid profile');
      expect(tokens.claims()?.sub).toBe(admin.userId);
    });

    it('RFC 7592: the client is managed through any host while its App allows registration, and keeps its App', async () => {
      const res = await registerAt(appOn.host, { ...publicClient, client_name: 'Managed' });
      expect(res.status, res.text).toBe(201);
      const uri = new URL(String(res.body.registration_client_uri));
      expect(uri.host).toBe(appOn.host);
      const auth = { authorization: `Bearer ${res.body.registration_access_token}` };
      expect((await api(appOn.host, 'GET', uri.pathname, { headers: auth })).status).toBe(200);
      // The realm host has registration off, but the client's App decides for the client's record.
      const updated = await api(realm.host, 'PUT', uri.pathname, {
        headers: auth,
        body: { ...publicClient, client_id: res.body.client_id, client_name: 'Managed, renamed', app_id: appOff.id },
      });
      expect(updated.status, updated.text).toBe(200);
      expect(await listed(String(res.body.client_id))).toMatchObject({ DisplayName: 'Managed, renamed', AppId: appOn.id });
    });
  });

  describe('the realm turns it on, one App turns it off', () => {
    beforeAll(async () => {
      await patchSettings(realm.host, admin.jar, { Dcr: { Enabled: true } });
    });

    it('openid-client registers through the realm issuer; the client belongs to no App', async () => {
      const config = await oidc.dynamicClientRegistration(new URL(issuerOf(realm.host)), { ...publicClient, client_name: 'Realm-wide SPA' }, undefined, {
        execute: [oidc.allowInsecureRequests],
        [oidc.customFetch]: realmFetch(),
      });
      const clientId = config.clientMetadata().client_id;
      expect((await listed(clientId)).AppId).toBeUndefined();
    });

    it('the App that turns it off neither advertises nor serves it', async () => {
      expect((await discovery(realm.host)).registration_endpoint).toBe(`${issuerOf(realm.host)}/connect/register`);
      expect((await discovery(appOff.host)).registration_endpoint).toBeUndefined();
      expect((await registerAt(appOff.host, publicClient)).status).toBe(404);
    });

    it('a client registered for the realm is still managed through that App’s host (its own App, the built-in one, allows it)', async () => {
      const res = await registerAt(realm.host, publicClient);
      expect(res.status, res.text).toBe(201);
      const path = new URL(String(res.body.registration_client_uri)).pathname;
      const auth = { authorization: `Bearer ${res.body.registration_access_token}` };
      expect((await api(appOff.host, 'GET', path, { headers: auth })).status).toBe(200);
    });

    it('turning the realm off again closes the realm host and the management of its clients, not the App that turns it on', async () => {
      const res = await registerAt(realm.host, publicClient);
      const path = new URL(String(res.body.registration_client_uri)).pathname;
      await patchSettings(realm.host, admin.jar, { Dcr: { Enabled: false } });
      expect((await registerAt(realm.host, publicClient)).status).toBe(404);
      expect((await api(realm.host, 'GET', path, { headers: { authorization: `Bearer ${res.body.registration_access_token}` } })).status).toBe(404);
      expect((await registerAt(appOn.host, publicClient)).status).toBe(201);
    });
  });
});

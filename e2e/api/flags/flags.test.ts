import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeAccount, makeCredential } from '../service-accounts/fixtures';
import { api, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';
import { discover } from '../support/oauth';
import { createTestApp } from '../support/test-apps';

// The flag evaluation routes (spec 4.10, docs/flags.md): RealmFeatures (plain, GET) read from the
// realm settings, AppFeatures (contextual, POST { AppId }) with the App's overrides.
describe('flag evaluation routes', () => {
  let host: string;
  let domain: string;
  let admin: SignedIn;

  const patchSettings = async (body: Record<string, unknown>) => {
    const res = await api(host, 'PATCH', '/api/realm-settings', { cookie: admin.jar, body });
    expect(res.status, res.text).toBe(200);
  };

  beforeAll(async () => {
    const realm = await realmWithAdmin();
    ({ host, domain, admin } = realm);
  });

  it('GET RealmFeatures/* answers { value } and follows the realm settings', async () => {
    const before = await api(host, 'GET', '/flags/RealmFeatures/PositionTerminals', { cookie: admin.jar });
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({ value: false });
    expect((await api(host, 'GET', '/flags/RealmFeatures/EmailOtp', { cookie: admin.jar })).body).toEqual({ value: true });

    await patchSettings({ Features: { PositionTerminals: true }, SignIn: { MagicLink: true, EmailOtp: false }, Dcr: { Enabled: true } });
    for (const [name, value] of [
      ['PositionTerminals', true],
      ['MagicLink', true],
      ['EmailOtp', false],
      ['Dcr', true],
      ['NativeGrants', false],
      ['Passkeys', true],
      ['Cimd', false],
    ] as const) {
      const res = await api(host, 'GET', `/flags/RealmFeatures/${name}`, { cookie: admin.jar });
      expect(res.status, `${name}: ${res.text}`).toBe(200);
      expect(res.body, name).toEqual({ value });
    }
    // The product reads the same switch: positions answer now that the flag is on.
    const positions = await api(host, 'GET', '/api/position', { cookie: admin.jar });
    expect(positions.status, positions.text).toBe(200);
    await patchSettings({ Features: { PositionTerminals: false } });
    expect((await api(host, 'GET', '/flags/RealmFeatures/PositionTerminals', { cookie: admin.jar })).body).toEqual({ value: false });
    expectProblem(await api(host, 'GET', '/api/position', { cookie: admin.jar }), 404, null);
  });

  it('POST AppFeatures/* resolves an App with its overrides; an unknown App is 404', async () => {
    await patchSettings({ NativeGrants: { Enabled: false } });
    const app = await createTestApp({ domain }, admin, { NativeGrants: { Enabled: true } });
    const forApp = await api(host, 'POST', '/flags/AppFeatures/NativeGrants', { cookie: admin.jar, body: { AppId: app.id } });
    expect(forApp.status, forApp.text).toBe(200);
    expect(forApp.body).toEqual({ value: true });
    // Property names of the body match case-insensitively, like every request body.
    const lower = await api(host, 'POST', '/flags/AppFeatures/NativeGrants', { cookie: admin.jar, body: { appId: app.id } });
    expect(lower.body).toEqual({ value: true });
    // A switch the App does not override is the realm's.
    expect((await api(host, 'POST', '/flags/AppFeatures/Passkeys', { cookie: admin.jar, body: { AppId: app.id } })).body).toEqual({ value: true });
    expect((await api(host, 'GET', '/flags/RealmFeatures/NativeGrants', { cookie: admin.jar })).body).toEqual({ value: false });

    const unknown = await api(host, 'POST', '/flags/AppFeatures/NativeGrants', { cookie: admin.jar, body: { AppId: '00000000-0000-4000-8000-0000000000ff' } });
    expectProblem(unknown, 404, 'App.NotFound');
  });

  it('unknown keys and the wrong method are 404; a bad body is 400', async () => {
    for (const [method, path] of [
      ['GET', '/flags/RealmFeatures/Nope'],
      ['GET', '/flags/Nope/PositionTerminals'],
      ['GET', '/flags/realmfeatures/PositionTerminals'],
      ['GET', '/flags/AppFeatures/Dcr'],
      ['POST', '/flags/RealmFeatures/Dcr'],
    ] as const) {
      const res = await api(host, method, path, { cookie: admin.jar, ...(method === 'POST' ? { body: {} } : {}) });
      expectProblem(res, 404, null);
    }
    const empty = await api(host, 'POST', '/flags/AppFeatures/Dcr', { cookie: admin.jar, body: {} });
    expectProblem(empty, 400, 'Validation.Failed');
    expect(Object.keys(empty.body.errors)).toEqual(['AppId']);
    const wrongType = await api(host, 'POST', '/flags/AppFeatures/Dcr', { cookie: admin.jar, body: { AppId: 42 } });
    expectProblem(wrongType, 400, 'Validation.Failed');
  });

  it('anonymous callers are refused; a Management API bearer token is accepted', async () => {
    expectProblem(await api(host, 'GET', '/flags/RealmFeatures/Dcr'), 401);
    expectProblem(await api(host, 'POST', '/flags/AppFeatures/Dcr', { body: { AppId: 'x' } }), 401);

    const account = await makeAccount(host, admin.jar);
    const cred = await makeCredential(host, admin.jar, account.id, { Scopes: ['gatehouse.management'] });
    const config = await discover(host, cred.clientId, cred.secret);
    const token = (await oidc.clientCredentialsGrant(config, { scope: 'gatehouse.management' })).access_token;
    const res = await api(host, 'GET', '/flags/RealmFeatures/Passkeys', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ value: true });
    const bad = await api(host, 'GET', '/flags/RealmFeatures/Passkeys', { headers: { authorization: 'Bearer not-a-token' } });
    expectProblem(bad, 401, 'Auth.InvalidToken');
  });

  it('the OpenAPI document lists the evaluation routes', async () => {
    const doc = await api(host, 'GET', '/swagger/v1/swagger.json');
    expect(doc.status).toBe(200);
    expect(doc.body.paths['/flags/RealmFeatures/PositionTerminals'].get).toBeDefined();
    expect(doc.body.paths['/flags/AppFeatures/NativeGrants'].post.requestBody).toBeDefined();
  });
});

import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHub, waitFor, type TestHub } from '../realtime/hub-client';
import { adminCookie, api, CP_HOST, eventually, hostHeader, suite } from '../support/harness';
import { oauthRealm, type OAuthRealm } from './fixtures';

// Issue 30 item 8: a client registered, changed or deleted through /connect/register (RFC 7591/7592)
// is written by the domain's client operations, as the admin API's are: the security log records
// each change, consoles hear `changed` { Resource: 'oauth-client', Action, Id }, every instance
// drops its cached client at once (on the two-instance run, GATEHOUSE_TEST_INSTANCES=2, consecutive
// requests land on different instances), and MaxOAuthClients holds inside the transaction.

type Entry = { Category: string; EventType: string; Success?: boolean; IpAddress?: string; UserId?: string; Detail?: Record<string, unknown> };

const OLD_URI = 'https://old.example.test/cb';
const NEW_URI = 'https://new.example.test/cb';

describe('dynamic client registration through the domain', () => {
  let realm: OAuthRealm;
  let hub: TestHub;

  beforeAll(async () => {
    realm = await oauthRealm();
    const on = await api(realm.host, 'PATCH', '/api/realm-settings', { cookie: realm.admin.jar, body: { Dcr: { Enabled: true } } });
    expect(on.status, on.text).toBe(200);
    // On one instance throughout (its negotiate and its transport); on the two-instance run the
    // changes below are made on either, so the hub's fan-out across instances is exercised too.
    hub = await connectHub(
      hostHeader(realm.host.split(':')[0], suite().instancePorts[0]),
      realm.admin.jar.toString(),
      HttpTransportType.WebSockets,
      `http://${realm.host}`,
    );
  });

  afterAll(async () => {
    await hub?.stop();
  });

  const codeClient = (redirectUris: string[], extra: Record<string, unknown> = {}) => ({
    client_name: 'Registered app',
    redirect_uris: redirectUris,
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });

  async function register(body: Record<string, unknown>) {
    const res = await api(realm.host, 'POST', '/connect/register', { body });
    expect(res.status, res.text).toBe(201);
    const path = new URL(String(res.body.registration_client_uri)).pathname;
    return { clientId: String(res.body.client_id), path, token: String(res.body.registration_access_token) };
  }

  /** RFC 7592 update: the whole registration again; answers the rotated registration access token. */
  async function update(client: { clientId: string; path: string; token: string }, body: Record<string, unknown>): Promise<string> {
    const res = await api(realm.host, 'PUT', client.path, {
      headers: { authorization: `Bearer ${client.token}` },
      body: { client_id: client.clientId, ...body },
    });
    expect(res.status, res.text).toBe(200);
    return String(res.body.registration_access_token);
  }

  async function rowId(clientId: string): Promise<string> {
    const list = await api(realm.host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: realm.admin.jar });
    expect(list.status, list.text).toBe(200);
    const row = list.body.items.find((c: { ClientId: string }) => c.ClientId === clientId);
    expect(row, `${clientId} is not listed`).toBeDefined();
    return row.Id;
  }

  /** The one security-log entry of `eventType` about `clientId` (the log subscriber runs after the answer). */
  async function logEntry(eventType: string, clientId: string): Promise<Entry> {
    return eventually(async () => {
      const res = await api(realm.host, 'GET', `/api/admin/auth-log?eventType=${eventType}&limit=1000`, { cookie: realm.admin.jar });
      expect(res.status, res.text).toBe(200);
      const entries = (res.body as Entry[]).filter((e) => e.Detail?.clientId === clientId);
      expect(entries).toHaveLength(1);
      return entries[0];
    });
  }

  /** GET /connect/authorize for the client with `redirectUri`: 400 (no redirect) when the URI is not registered. */
  function authorize(clientId: string, redirectUri: string) {
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    return api(realm.host, 'GET', `/connect/authorize?${query}`, { headers: { accept: 'text/html' } });
  }

  it('register, update and delete are each in the security log and announced to consoles', async () => {
    const client = await register(codeClient([OLD_URI]));
    const id = await rowId(client.clientId);

    await waitFor(hub, (c) => c.Resource === 'oauth-client' && c.Action === 'created' && c.Id === id);
    const created = await logEntry('oauth-client.created', client.clientId);
    expect(created).toMatchObject({ Category: 'OAuth', Success: true });
    expect(created.Detail).toMatchObject({ clientType: 'Public', grantTypes: ['authorization_code'], via: 'dynamic-registration' });
    expect(created.IpAddress).toBeTruthy();
    // Anonymous: no person is named, and the registration access token is nowhere.
    expect(created.UserId).toBeUndefined();
    expect(JSON.stringify(created)).not.toContain(client.token);

    const token = await update(client, codeClient([NEW_URI]));
    await waitFor(hub, (c) => c.Resource === 'oauth-client' && c.Action === 'updated' && c.Id === id);
    const updated = await logEntry('oauth-client.updated', client.clientId);
    expect(updated).toMatchObject({ Category: 'OAuth', Success: true });
    expect(updated.Detail).toMatchObject({ changed: ['RedirectUris'], via: 'dynamic-registration' });

    const gone = await api(realm.host, 'DELETE', client.path, { headers: { authorization: `Bearer ${token}` } });
    expect(gone.status, gone.text).toBe(204);
    await waitFor(hub, (c) => c.Resource === 'oauth-client' && c.Action === 'deleted' && c.Id === id);
    const deleted = await logEntry('oauth-client.deleted', client.clientId);
    expect(deleted.Detail).toMatchObject({ via: 'dynamic-registration' });
    expect((await api(realm.host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: realm.admin.jar })).body.items).not.toContainEqual(
      expect.objectContaining({ ClientId: client.clientId }),
    );
  });

  it('a refused registration or update writes nothing, logs nothing and announces nothing', async () => {
    const client = await register(codeClient([OLD_URI]));
    const id = await rowId(client.clientId);
    await waitFor(hub, (c) => c.Action === 'created' && c.Id === id);
    const refused = await api(realm.host, 'PUT', client.path, {
      headers: { authorization: `Bearer ${client.token}` },
      body: { client_id: client.clientId, ...codeClient(['http://attacker.example/cb']) },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(['invalid_redirect_uri', 'invalid_client_metadata']).toContain(refused.body.error);
    await new Promise((r) => setTimeout(r, 300));
    expect(hub.received.filter((c) => c.Id === id).map((c) => c.Action)).toEqual(['created']);
    const log = await api(realm.host, 'GET', '/api/admin/auth-log?eventType=oauth-client.updated&limit=1000', { cookie: realm.admin.jar });
    expect((log.body as Entry[]).filter((e) => e.Detail?.clientId === client.clientId)).toEqual([]);
    // The stored client kept its redirect URI: it is still the one accepted.
    expect((await authorize(client.clientId, OLD_URI)).status).not.toBe(400);
  });

  it('what the admin API refuses, registration refuses, as the engine answers registrations: a public client_credentials client', async () => {
    const before = (await api(realm.host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: realm.admin.jar })).body.totalCount as number;
    const publicMachine = await api(realm.host, 'POST', '/connect/register', {
      body: { grant_types: ['client_credentials'], response_types: [], token_endpoint_auth_method: 'none' },
    });
    expect(publicMachine.status, publicMachine.text).toBe(400);
    expect(publicMachine.body.error).toBe('invalid_client_metadata');
    // The admin API's rule (client-rules.ts), in the registration's own field names.
    expect(publicMachine.body.error_description).toBe('grant_types: client_credentials needs a Confidential client.');
    expect((await api(realm.host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: realm.admin.jar })).body.totalCount).toBe(before);
  });

  // Consecutive requests go to different instances on the two-instance run: each must see the update
  // at once, not after the client cache's 30 s.
  it('an update is seen at once by every instance: the old redirect URI is refused, the new one accepted', async () => {
    const client = await register(codeClient([OLD_URI]));
    const rounds = 3 * suite().instances;
    // Every instance has the client in its cache.
    for (let i = 0; i < rounds; i++) {
      const res = await authorize(client.clientId, OLD_URI);
      expect(res.status, res.text).toBeGreaterThanOrEqual(300);
      expect(res.status, res.text).toBeLessThan(400);
    }
    await update(client, codeClient([NEW_URI]));
    for (let i = 0; i < rounds; i++) {
      expect((await authorize(client.clientId, OLD_URI)).status, `old URI, request ${i + 1}`).toBe(400);
      const accepted = await authorize(client.clientId, NEW_URI);
      expect(accepted.status, `new URI, request ${i + 1}: ${accepted.text}`).toBeGreaterThanOrEqual(300);
      expect(accepted.status).toBeLessThan(400);
    }
  });

  it('MaxOAuthClients holds inside the transaction: of registrations racing for the last place one succeeds, the rest are refused, none fails', async () => {
    const before = (await api(realm.host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: realm.admin.jar })).body.totalCount as number;
    const limit = await api(CP_HOST, 'PUT', `/api/admin/realms/${realm.slug}/entitlements`, { cookie: adminCookie(), body: { MaxOAuthClients: before + 1 } });
    expect(limit.status, limit.text).toBe(200);
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, () => api(realm.host, 'POST', '/connect/register', { body: codeClient([OLD_URI]) })));
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s === 201),
        JSON.stringify(answers.map((a) => a.text)),
      ).toHaveLength(1);
      expect(
        statuses.filter((s) => s !== 201).every((s) => s === 409),
        JSON.stringify(answers.map((a) => a.text)),
      ).toBe(true);
      expect((await api(realm.host, 'GET', '/api/admin/oauth/clients?pageSize=200', { cookie: realm.admin.jar })).body.totalCount).toBe(before + 1);
    } finally {
      await api(CP_HOST, 'PUT', `/api/admin/realms/${realm.slug}/entitlements`, { cookie: adminCookie(), body: { MaxOAuthClients: null } });
    }
  });
});

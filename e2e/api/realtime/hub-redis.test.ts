import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, stopInstances } from '../support/instances';
import { randomSuffix } from '../support/server-process';
import { api, hostHeader, realmWithAdmin, suite, type CreatedRealm, type SignedIn } from '../support/harness';
import { makeUser } from '../users/fixtures';
import { connectHub, waitFor, type TestHub } from './hub-client';

// Two instances sharing one store and one Redis (docs/realtime.md "Fan-out"): a change made through
// instance A reaches a console connected to instance B, and a session ended on A closes B's
// connection. On the PostgreSQL run the main server already uses Redis and is instance A; otherwise
// both instances are started here with REDIS_URL.

const REDIS_URL = suite().redisUrl ?? process.env.GATEHOUSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
let portA: number;
let portB: number;
let realm: CreatedRealm & { admin: SignedIn };
const open: TestHub[] = [];

const twin = async (name: string) => (await startInstance(`hub-${name}`, { redisUrl: REDIS_URL })).port;

beforeAll(async () => {
  [portA, portB] = await Promise.all([suite().redisUrl ? Promise.resolve(suite().port) : twin('a'), twin('b')]);
  realm = await realmWithAdmin();
}, 300_000);

afterAll(async () => {
  await Promise.all(open.map((h) => h.stop().catch(() => undefined)));
  await stopInstances();
});

describe('two instances sharing Redis', () => {
  it.each([
    ['WebSockets', HttpTransportType.WebSockets],
    ['LongPolling', HttpTransportType.LongPolling],
  ] as const)(
    'a user created on A is announced to a %s console on B',
    async (_name, transport) => {
      const hub = await connectHub(hostHeader(realm.domain, portB), realm.admin.jar.toString(), transport);
      open.push(hub);
      const res = await api(hostHeader(realm.domain, portA), 'POST', '/api/user', {
        port: portA,
        cookie: realm.admin.jar,
        body: { UserName: `r-${randomSuffix(4)}`, Email: `r-${randomSuffix(4)}@example.test` },
      });
      expect(res.status, res.text).toBe(201);
      await waitFor(hub, (c) => c.Resource === 'user' && c.Action === 'created' && c.Id === res.body.Id);
    },
    180_000,
  );

  it('a session ended on A closes its connection on B', async () => {
    const user = await makeUser(realm.host, realm.admin.jar);
    const login = await api(hostHeader(realm.domain, portA), 'POST', '/api/account/login', {
      port: portA,
      body: { UserName: user.userName, Password: user.password },
    });
    expect(login.status, login.text).toBe(200);
    const cookie = login.setCookies.map((c) => c.split(';')[0]).join('; ');
    const hub = await connectHub(hostHeader(realm.domain, portB), cookie, HttpTransportType.WebSockets);
    open.push(hub);
    const out = await api(hostHeader(realm.domain, portA), 'POST', '/api/account/logout', { port: portA, cookie, body: {} });
    expect(out.status).toBeLessThan(300);
    const closed = await Promise.race([hub.closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 5_000))]);
    expect(closed).toBe('closed');
  }, 120_000);

  // The cache relay (lib/runtime/realm-invalidation.ts) rides the same Redis: B's OAuth engine keeps
  // a copy of a client it has used, and a change made on A must reach it before B's next request.
  it("a client secret regenerated on A is refused by B's engine at once", async () => {
    const created = await api(hostHeader(realm.domain, portA), 'POST', '/api/admin/oauth/clients', {
      port: portA,
      cookie: realm.admin.jar,
      body: { DisplayName: 'Relay', ClientType: 'Confidential', GrantTypes: ['client_credentials'], Scopes: ['gatehouse.management'] },
    });
    expect(created.status, created.text).toBe(201);
    const { Id, ClientId, ClientSecret } = created.body;
    const token = (secret: string) =>
      api(hostHeader(realm.domain, portB), 'POST', '/connect/token', {
        port: portB,
        rawBody: 'grant_type=client_credentials&scope=gatehouse.management',
        contentType: 'application/x-www-form-urlencoded',
        headers: { authorization: `Basic ${Buffer.from(`${ClientId}:${secret}`).toString('base64')}` },
      });
    expect((await token(ClientSecret)).status).toBe(200); // B now holds the client in its cache
    const regenerated = await api(hostHeader(realm.domain, portA), 'POST', `/api/admin/oauth/clients/${Id}/regenerate-secret`, {
      port: portA,
      cookie: realm.admin.jar,
      body: {},
    });
    expect(regenerated.status, regenerated.text).toBe(200);
    const fresh = regenerated.body.ClientSecret as string;
    expect(fresh).toBeTruthy();
    // The relay is asynchronous (Redis pub/sub): allow it a moment, never the cache's 30 s.
    const deadline = Date.now() + 2_000;
    let old = await token(ClientSecret);
    while (old.status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      old = await token(ClientSecret);
    }
    expect(old.status).toBe(401);
    expect((await token(fresh)).status).toBe(200);
  }, 120_000);
});

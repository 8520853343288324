import { HubConnectionState } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { api, eventually, expectProblem, realmWithAdmin, suite, type CookieJar, type CreatedRealm, type SignedIn } from '../support/harness';
import { grant, makeUser, signedIn } from '../users/fixtures';
import { connectHub, TRANSPORTS, waitFor, type TestHub } from './hub-client';

// The real-time hub /signalr/ui with the unchanged @microsoft/signalr client over each transport
// (docs/realtime.md): changes of the realm only, filtered by permission, and the connection ends
// when its session does.

let one: CreatedRealm & { admin: SignedIn };
let other: CreatedRealm & { admin: SignedIn };
const open: TestHub[] = [];

beforeAll(async () => {
  [one, other] = await Promise.all([realmWithAdmin(), realmWithAdmin()]);
});

afterAll(async () => {
  await Promise.all(open.map((h) => h.stop().catch(() => undefined)));
});

async function hubOf(host: string, jar: CookieJar, transport: Parameters<typeof connectHub>[2]): Promise<TestHub> {
  const hub = await connectHub(host, jar.toString(), transport);
  open.push(hub);
  return hub;
}

describe('negotiate', () => {
  it('is 401 without a session cookie', async () => {
    expectProblem(await api(one.host, 'POST', '/signalr/ui/negotiate?negotiateVersion=1'), 401, 'Auth.Unauthenticated');
  });

  it('is 401 with another realm’s cookie', async () => {
    expectProblem(await api(one.host, 'POST', '/signalr/ui/negotiate?negotiateVersion=1', { cookie: other.admin.jar }), 401, 'Auth.Unauthenticated');
  });

  it('is refused from another origin', async () => {
    const res = await api(one.host, 'POST', '/signalr/ui/negotiate?negotiateVersion=1', { cookie: one.admin.jar, headers: { origin: 'http://evil.example' } });
    expectProblem(res, 403, 'Request.CsrfRejected');
  });

  it('offers the three transports', async () => {
    const res = await api(one.host, 'POST', '/signalr/ui/negotiate?negotiateVersion=1', { cookie: one.admin.jar });
    expect(res.status).toBe(200);
    expect(res.body.negotiateVersion).toBe(1);
    expect(typeof res.body.connectionId).toBe('string');
    expect(typeof res.body.connectionToken).toBe('string');
    expect(res.body.availableTransports.map((t: { transport: string }) => t.transport)).toEqual(['WebSockets', 'ServerSentEvents', 'LongPolling']);
  });

  it('does not hand a connection to another session', async () => {
    const res = await api(one.host, 'POST', '/signalr/ui/negotiate?negotiateVersion=1', { cookie: one.admin.jar });
    const user = await makeUser(one.host, one.admin.jar);
    const jar = await signedIn(one.host, user);
    expectProblem(await api(one.host, 'GET', `/signalr/ui?id=${res.body.connectionToken}`, { cookie: jar }), 404, 'Request.NotFound');
  });
});

describe.each(TRANSPORTS)('over %s', (_name, transport) => {
  it('tells an admin of a user created in its realm, and of nothing in another realm', async () => {
    const hub = await hubOf(one.host, one.admin.jar, transport);
    expect(hub.connection.state).toBe(HubConnectionState.Connected);
    const elsewhere = await makeUser(other.host, other.admin.jar);
    const here = await makeUser(one.host, one.admin.jar);
    const started = Date.now();
    await waitFor(hub, (c) => c.Resource === 'user' && c.Action === 'created' && c.Id === here.id);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(hub.received.some((c) => c.Id === elsewhere.id)).toBe(false);
  });

  it('tells a person only of the resources they may read', async () => {
    const reader = await makeUser(one.host, one.admin.jar);
    await grant(one.host, one.admin.jar, ['authorization-group:read'], reader.id);
    const readerHub = await hubOf(one.host, await signedIn(one.host, reader), transport);
    const adminHub = await hubOf(one.host, one.admin.jar, transport);
    const made = await makeUser(one.host, one.admin.jar);
    const group = await api(one.host, 'POST', '/api/group', { cookie: one.admin.jar, body: { Name: `g-${made.userName}` } });
    expect(group.status).toBe(201);
    await waitFor(readerHub, (c) => c.Resource === 'authorization-group' && c.Action === 'created' && c.Id === group.body.Id);
    await waitFor(adminHub, (c) => c.Resource === 'user' && c.Id === made.id);
    expect(readerHub.received.some((c) => c.Resource === 'user')).toBe(false);
  });

  it('ends the connection when its session is signed out', async () => {
    const user = await makeUser(one.host, one.admin.jar);
    const jar = await signedIn(one.host, user);
    const hub = await hubOf(one.host, jar, transport);
    const out = await api(one.host, 'POST', '/api/account/logout', { cookie: jar, body: {} });
    expect(out.status).toBeLessThan(300);
    const closed = await Promise.race([hub.closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 5_000))]);
    expect(closed).toBe('closed');
    expect(hub.connection.state).toBe(HubConnectionState.Disconnected);
  });

  it('ends the connection when an administrator ends the person’s sessions', async () => {
    const user = await makeUser(one.host, one.admin.jar);
    const jar = await signedIn(one.host, user);
    const hub = await hubOf(one.host, jar, transport);
    const res = await api(one.host, 'DELETE', `/api/admin/users/${user.id}/sessions`, { cookie: one.admin.jar });
    expect(res.status).toBeLessThan(300);
    const closed = await Promise.race([hub.closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 5_000))]);
    expect(closed).toBe('closed');
  });
});

describe('the WebSocket upgrade and the protocol on the wire', () => {
  async function negotiated(jar: CookieJar): Promise<string> {
    const res = await api(one.host, 'POST', '/signalr/ui/negotiate?negotiateVersion=1', { cookie: jar });
    expect(res.status).toBe(200);
    return res.body.connectionToken as string;
  }

  function upgrade(token: string, headers: Record<string, string>): Promise<{ status?: number; socket?: WebSocket }> {
    return new Promise((resolve) => {
      const socket = new WebSocket(`ws://127.0.0.1:${suite().port}/signalr/ui?id=${encodeURIComponent(token)}`, { headers: { host: one.host, ...headers } });
      socket.on('open', () => resolve({ socket }));
      socket.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
      socket.on('error', () => resolve({}));
    });
  }

  it('refuses an upgrade without the session cookie or from another origin', async () => {
    const token = await negotiated(one.admin.jar);
    expect((await upgrade(token, {})).status).toBe(401);
    expect((await upgrade(token, { cookie: one.admin.jar.toString(), origin: 'http://evil.example' })).status).toBe(403);
    // With the cookie but no Origin (browsers always send one on an upgrade): not a browser's page.
    expect((await upgrade(token, { cookie: one.admin.jar.toString() })).status).toBe(403);
    expect((await upgrade('no-such-connection', { cookie: one.admin.jar.toString(), origin: `http://${one.host}` })).status).toBe(404);
  });

  it('opens no WebSocket on any other path (those upgrades are Next’s, which serves none in production)', async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${suite().port}/api/account/me`, { headers: { host: one.host, cookie: one.admin.jar.toString() } });
    const outcome = await new Promise<string>((resolve) => {
      socket.on('open', () => resolve('open'));
      socket.on('unexpected-response', (_req, res) => resolve(`status ${res.statusCode}`));
      socket.on('error', () => resolve('refused'));
    });
    socket.terminate();
    expect(outcome).not.toBe('open');
    // The hub still upgrades afterwards.
    const { socket: hub } = await upgrade(await negotiated(one.admin.jar), { cookie: one.admin.jar.toString(), origin: `http://${one.host}` });
    expect(hub?.readyState).toBe(WebSocket.OPEN);
    hub?.close();
  });

  it('answers the handshake, refuses another protocol, and pings a quiet connection', async () => {
    const refused = await upgrade(await negotiated(one.admin.jar), { cookie: one.admin.jar.toString(), origin: `http://${one.host}` });
    const refusedText = new Promise<string>((r) => refused.socket!.once('message', (d) => r(String(d))));
    refused.socket!.send('{"protocol":"messagepack","version":1}\x1e');
    expect(JSON.parse((await refusedText).slice(0, -1))).toEqual({ error: "The protocol 'messagepack' is not supported." });

    const { socket } = await upgrade(await negotiated(one.admin.jar), { cookie: one.admin.jar.toString(), origin: `http://${one.host}` });
    const messages: string[] = [];
    socket!.on('message', (d) => messages.push(String(d)));
    // The handshake in two pieces: the record ends at its separator.
    socket!.send('{"protocol":"json",');
    socket!.send('"version":1}\x1e');
    await eventually(async () => expect(messages).toContain('{}\x1e'), 5_000);
    socket!.send('{"type":6}\x1e');
    await eventually(async () => expect(messages).toContain('{"type":6}\x1e'), 20_000);
    socket!.close();
  }, 30_000);
});

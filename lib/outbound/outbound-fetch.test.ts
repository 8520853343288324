import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_ALLOW_LIST, parseAllowList } from './address-policy';
import { connectOutbound, isOutboundRefusal } from './guarded-socket';
import { outboundFailureOf, outboundFetch } from './outbound-fetch';

// The outbound policy on real sockets: a refused address is never connected to (the listening
// server counts connections), whether the URL names it, a host name resolves to it, or a redirect
// from an allowed host leads to it. Only loopback addresses are used.

type Listener = { server: Server; port: number; connections: number };

async function listen(host: string, handler: Parameters<typeof createServer>[1] = (_req, res) => res.end('ok')): Promise<Listener> {
  const server = createServer(handler);
  const l: Listener = { server, port: 0, connections: 0 };
  server.on('connection', () => (l.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  l.port = (server.address() as AddressInfo).port;
  return l;
}

async function close(l: Listener): Promise<void> {
  l.server.closeAllConnections();
  await new Promise<void>((resolve) => l.server.close(() => resolve()));
}

const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

describe('outboundFetch', () => {
  let allowed: Listener;
  let refused: Listener;
  const allow = parseAllowList('127.0.0.0/9');

  beforeAll(async () => {
    refused = await listen('127.200.0.1');
    allowed = await listen('127.0.0.1', (req, res) => {
      if (req.url === '/away') res.writeHead(302, { location: `http://127.200.0.1:${refused.port}/inside` }).end();
      else res.end('ok');
    });
  });
  afterAll(async () => {
    await close(allowed);
    await close(refused);
  });

  it('fetches from an address the operator lists', async () => {
    const res = await outboundFetch(allow)(`http://127.0.0.1:${allowed.port}/x`);
    expect(await res.text()).toBe('ok');
  });

  it('refuses an address outside the list without connecting, in any spelling', async () => {
    for (const host of ['127.200.0.1', '2143813633', '0x7f.0xc8.0.1', '[::ffff:127.200.0.1]', '[::ffff:7fc8:1]']) {
      const error = await failureOf(outboundFetch(allow)(`http://${host}:${refused.port}/`));
      expect(outboundFailureOf(error), host).toBe('not-allowed');
    }
    expect(await failureOf(outboundFetch(EMPTY_ALLOW_LIST)(`http://127.0.0.1:${allowed.port}/`)).then(outboundFailureOf)).toBe('not-allowed');
    expect(refused.connections).toBe(0);
  });

  it('refuses a host name whose addresses are all refused, without connecting', async () => {
    const before = allowed.connections;
    const error = await failureOf(outboundFetch(EMPTY_ALLOW_LIST)(`http://localhost:${allowed.port}/`));
    expect(outboundFailureOf(error)).toBe('not-allowed');
    expect(allowed.connections).toBe(before);
  });

  it('checks every hop of a redirect', async () => {
    const error = await failureOf(outboundFetch(allow)(`http://127.0.0.1:${allowed.port}/away`));
    expect(outboundFailureOf(error)).toBe('not-allowed');
    expect(refused.connections).toBe(0);
  });

  it('tells refused, unreachable and answered apart only as far as an administrator needs', async () => {
    const gone = await listen('127.0.0.1');
    await close(gone);
    expect(outboundFailureOf(await failureOf(outboundFetch(allow)(`http://127.0.0.1:${gone.port}/`)))).toBe('unreachable');
    const hangUp = await listen('127.0.0.1', (req) => req.socket.destroy());
    expect(outboundFailureOf(await failureOf(outboundFetch(allow)(`http://127.0.0.1:${hangUp.port}/`)))).toBe('unreachable');
    await close(hangUp);
    expect(outboundFailureOf(new Error('unexpected HTTP response status code (404)'))).toBeUndefined();
  });
});

describe('connectOutbound', () => {
  it('refuses 10.x, 169.254.169.254 and fd00:ec2::254 before any packet leaves', async () => {
    for (const host of ['10.1.2.3', '169.254.169.254', '[fd00:ec2::254]', '100.100.100.200']) {
      const socket = connectOutbound(EMPTY_ALLOW_LIST, { host, port: 80 });
      expect(socket.connecting, host).toBe(false);
      const error = await new Promise<Error>((resolve) => socket.once('error', resolve));
      expect(isOutboundRefusal(error), host).toBe(true);
    }
  });

  it('connects to a listed host name through the address it resolved and permitted', async () => {
    const l = await listen('127.0.0.1');
    try {
      const socket: Socket = connectOutbound(parseAllowList('localhost'), { host: 'localhost', port: l.port });
      await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('error', reject));
      expect(socket.remoteAddress).toBe('127.0.0.1');
      socket.destroy();
    } finally {
      await close(l);
    }
  });
});

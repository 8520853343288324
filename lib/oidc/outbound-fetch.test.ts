import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_ALLOW_LIST, parseAllowList } from '../outbound/address-policy';
import { failedRecently } from './fetch-failures';
import { engineFetch, fetchFailureReason, loggableUrl } from './outbound-fetch';

// The engine's outbound fetches (Client ID Metadata Documents and the jwks_uri they name) go
// through the outbound policy (lib/outbound, whose own tests cover the addresses): engineFetch
// replaces the engine's dispatcher with the policy's, and GATEHOUSE_OUTBOUND_ALLOW opens loopback.

const ENGINE_FETCH_MODULE = 'oidc-provider/lib/helpers/fetch_request.js';

describe('engineFetch behind the engine’s fetch', () => {
  let server: Server;
  let origin: string;
  let hits = 0;
  type EngineFetchRequest = { default(provider: Provider, url: string, options: RequestInit): Promise<Response> };
  let fetchRequest: EngineFetchRequest['default'];

  beforeAll(async () => {
    fetchRequest = ((await import(/* @vite-ignore */ ENGINE_FETCH_MODULE)) as EngineFetchRequest).default;
    server = createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** The engine's own outbound request (timeout, its own dispatcher) through a provider configured with engineFetch. */
  const engineGet = (allowLoopback: boolean, path: string) =>
    fetchRequest(
      new Provider('https://issuer.example', { fetch: engineFetch('unit', allowLoopback ? parseAllowList('127.0.0.1') : EMPTY_ALLOW_LIST) }),
      `${origin}${path}`,
      {
        method: 'GET',
      },
    );

  it('refuses a loopback address by default, before any request is sent, and remembers the failure', async () => {
    const before = hits;
    const failure = await engineGet(false, '/client.json').then(
      () => null,
      (e: unknown) => fetchFailureReason(e),
    );
    expect(failure).toBe('the address is not allowed');
    expect(hits).toBe(before);
    expect(await failedRecently(`${origin}/client.json`)).toBe(true);
  });

  it('with loopback in GATEHOUSE_OUTBOUND_ALLOW, fetches from loopback', async () => {
    const res = await engineGet(true, '/allowed.json');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{}');
    expect(await failedRecently(`${origin}/allowed.json`)).toBe(false);
  });
});

describe('what is logged of a fetch', () => {
  it('the URL without its query or fragment', () => {
    expect(loggableUrl('https://app.example.com/oauth/client.json?token=secret#x')).toBe('https://app.example.com/oauth/client.json');
    expect(loggableUrl(new URL('https://app.example.com/a?b=c'))).toBe('https://app.example.com/a');
    expect(loggableUrl('not a url')).toBe('(unparseable URL)');
  });

  it('the kind of failure', () => {
    expect(fetchFailureReason(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe('timed out');
    expect(fetchFailureReason(new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }))).toBe('ECONNREFUSED');
  });
});

import fc from 'fast-check';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedRecently } from './fetch-failures';
import { engineFetch, fetchFailureReason, loggableUrl } from './outbound-fetch';

// The SSRF guard of the engine's outbound fetches (Client ID Metadata Documents and the jwks_uri
// they name): oidc-provider's dispatcher refuses special-use addresses, and engineFetch keeps it
// unless GATEHOUSE_CIMD_ALLOW_PRIVATE_NETWORKS drops it. The address check is the engine's own; these
// examples pin the ranges Gatehouse relies on, so an upgrade that loosened it would fail here.

type AddressCheck = { isSpecialUseIP(ip: string): boolean };
const ENGINE_FETCH_MODULE = 'oidc-provider/lib/helpers/fetch_request.js';

describe('the address check', () => {
  let check: AddressCheck;
  beforeAll(async () => {
    check = (await import(/* @vite-ignore */ ENGINE_FETCH_MODULE)) as AddressCheck;
  });

  it('refuses loopback, private, link-local, shared and unique-local addresses, also as IPv4-mapped IPv6', () => {
    for (const ip of [
      '127.0.0.1',
      '127.255.255.254',
      '0.0.0.0',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.10',
      '169.254.169.254',
      '100.64.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456:789a::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
    ])
      expect(check.isSpecialUseIP(ip), ip).toBe(true);
  });

  it('lets public addresses through', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])
      expect(check.isSpecialUseIP(ip), ip).toBe(false);
  });

  it('holds across whole ranges', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(fc.property(octet, octet, octet, (a, b, c) => check.isSpecialUseIP(`10.${a}.${b}.${c}`) && check.isSpecialUseIP(`127.${a}.${b}.${c}`)));
    fc.assert(fc.property(octet, octet, (a, b) => check.isSpecialUseIP(`192.168.${a}.${b}`) && check.isSpecialUseIP(`169.254.${a}.${b}`)));
    fc.assert(fc.property(fc.integer({ min: 16, max: 31 }), octet, octet, (a, b, c) => check.isSpecialUseIP(`172.${a}.${b}.${c}`)));
    fc.assert(fc.property(octet, octet, (a, b) => !check.isSpecialUseIP(`8.8.${a}.${b}`)));
  });
});

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

  /** The engine's own outbound request (timeout, SSRF dispatcher) through a provider configured with engineFetch. */
  const engineGet = (allowPrivateNetworks: boolean, path: string) =>
    fetchRequest(new Provider('https://issuer.example', { fetch: engineFetch('unit', allowPrivateNetworks) }), `${origin}${path}`, { method: 'GET' });

  it('refuses a loopback address by default, before any request is sent, and remembers the failure', async () => {
    const before = hits;
    const failure = await engineGet(false, '/client.json').then(
      () => null,
      (e: unknown) => fetchFailureReason(e),
    );
    expect(failure).toMatch(/special-use IP address/);
    expect(hits).toBe(before);
    expect(await failedRecently(`${origin}/client.json`)).toBe(true);
  });

  it('with private networks allowed, fetches from loopback', async () => {
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRateLimited, setRateLimits } from '../passwords/links';
import { api, hostHeader, realmWithAdmin, type CreatedRealm, type SignedIn } from '../support/harness';
import { startInstance, stopInstances } from '../support/instances';
import type { ServerHandle } from '../support/server-process';

// Behind a load balancer every request comes from the balancer's address (docs/deployment.md): with
// GATEHOUSE_TRUSTED_PROXIES naming it, X-Forwarded-For names the client, so each client has its own
// per-source allowance; without it the header is ignored (a client cannot pick its own address).
// Counters are per realm: each case has a realm of its own, with forgot-password's source ceiling at 2.

const TIGHT = {
  'forgot-password': {
    Source: { Points: 2, DurationSeconds: 600 },
    Target: { Points: 1000, DurationSeconds: 600 },
    App: { Points: 1000, DurationSeconds: 600 },
  },
};

let behindProxy: ServerHandle;
let mailbox = 0;

async function tightRealm(): Promise<CreatedRealm & { admin: SignedIn }> {
  const realm = await realmWithAdmin();
  await setRateLimits(realm.host, realm.admin.jar, TIGHT);
  return realm;
}

const forgot = (realm: CreatedRealm, forwardedFor: string, port?: number) =>
  api(port ? hostHeader(realm.domain, port) : realm.host, 'POST', '/api/account/forgot-password', {
    ...(port ? { port } : {}),
    headers: { 'x-forwarded-for': forwardedFor },
    body: { Email: `someone-${++mailbox}@example.test` },
  });

beforeAll(async () => {
  // The tests reach it from 127.0.0.1: the loopback is the "load balancer".
  behindProxy = await startInstance('trusted-proxies', { env: { GATEHOUSE_TRUSTED_PROXIES: 'loopback', GATEHOUSE_RATE_LIMIT_SCALE: '1' } });
}, 120_000);

afterAll(async () => {
  await stopInstances();
});

describe('trusted proxies', () => {
  it('make X-Forwarded-For the rate-limit source: each client behind the balancer has its own allowance', async () => {
    const realm = await tightRealm();
    const port = behindProxy.port;
    expect((await forgot(realm, '198.51.100.1', port)).status).toBe(200);
    expect((await forgot(realm, '198.51.100.1', port)).status).toBe(200);
    expectRateLimited(await forgot(realm, '198.51.100.1', port), 'forgot-password', 'source');
    expect((await forgot(realm, '198.51.100.2', port)).status).toBe(200);
    // A client that sends its own header is named by the hop the balancer appended, not by what it wrote.
    expectRateLimited(await forgot(realm, '203.0.113.50, 198.51.100.1', port), 'forgot-password', 'source');
  });

  it('are none by default: the header is ignored and every request counts for the socket peer', async () => {
    const realm = await tightRealm();
    expect((await forgot(realm, '198.51.100.1')).status).toBe(200);
    expect((await forgot(realm, '198.51.100.2')).status).toBe(200);
    expectRateLimited(await forgot(realm, '198.51.100.3'), 'forgot-password', 'source');
  });
});

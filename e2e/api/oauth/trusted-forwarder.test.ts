import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { patchSettings } from '../mfa/fixtures';
import { expectRateLimited } from '../passwords/links';
import { api, type ApiResponse } from '../support/harness';
import { dpopClientCredentials, dpopKey, htuOf, proof } from '../support/dpop';
import { createClient } from '../support/oauth';
import { MANAGEMENT_SCOPE, oauthRealm, rp, type OAuthRealm } from './fixtures';

// Trusted forwarders (spec 5.4, lib/http/bearer.ts): a backend calling the public auth endpoints
// for browsers sends its bearer token and `Gatehouse-Forwarded-For: <browser address>`; when the
// token's client is confidential and holds `cap:trusted-forwarder`, that address is the rate-limit
// source. From anyone else the header is ignored and the caller's own address counts. Each case
// has a realm of its own: counters are per realm, and every request here comes from 127.0.0.1.

const TRUSTED = 'cap:trusted-forwarder';

/** forgot-password ceilings: 2 per source, the other dimensions out of the way. */
const TIGHT_SOURCE = {
  RateLimits: {
    'forgot-password': {
      Source: { Points: 2, DurationSeconds: 600 },
      Target: { Points: 1000, DurationSeconds: 600 },
      App: { Points: 1000, DurationSeconds: 600 },
    },
  },
};

async function tightRealm(): Promise<OAuthRealm> {
  const realm = await oauthRealm();
  await patchSettings(realm.host, realm.admin.jar, TIGHT_SOURCE);
  return realm;
}

/** A client-credentials token of a new confidential client with `capabilities`. */
async function backendToken(realm: OAuthRealm, capabilities: string[]): Promise<string> {
  const client = await createClient(realm.host, realm.admin.jar, {
    DisplayName: capabilities.length ? 'Login backend' : 'Ordinary backend',
    ClientType: 'Confidential',
    ConsentType: 'Implicit',
    RedirectUris: [],
    GrantTypes: ['client_credentials'],
    Scopes: [MANAGEMENT_SCOPE],
    Capabilities: capabilities,
  });
  const config = await rp(realm.host, client.ClientId, client.ClientSecret);
  return (await oidc.clientCredentialsGrant(config, { scope: MANAGEMENT_SCOPE })).access_token;
}

let mailbox = 0;

/** POST /api/account/forgot-password, forwarded for `forwardedFor` with `token` when given. */
function forgot(realm: OAuthRealm, options: { token?: string; forwardedFor?: string } = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.forwardedFor) headers['gatehouse-forwarded-for'] = options.forwardedFor;
  return api(realm.host, 'POST', '/api/account/forgot-password', { headers, body: { Email: `someone-${++mailbox}@example.test` } });
}

function expectSourceLimited(res: ApiResponse): void {
  expectRateLimited(res, 'forgot-password', 'source');
  // Spec 7: exactly these members besides the problem's own.
  const { error, policy, dimension, retryAfterSeconds } = res.body;
  expect({ error, policy, dimension }).toEqual({ error: 'rate_limited', policy: 'forgot-password', dimension: 'source' });
  expect(retryAfterSeconds).toBeLessThanOrEqual(600);
  expect(Number(res.headers['retry-after'])).toBe(retryAfterSeconds);
}

describe('trusted forwarders', () => {
  it("name the rate-limit source: each forwarded address has its own allowance, the caller's own is untouched", async () => {
    const realm = await tightRealm();
    const token = await backendToken(realm, [TRUSTED]);

    expect((await forgot(realm, { token, forwardedFor: '10.0.0.1' })).status).toBe(200);
    expect((await forgot(realm, { token, forwardedFor: '10.0.0.1' })).status).toBe(200);
    expectSourceLimited(await forgot(realm, { token, forwardedFor: '10.0.0.1' }));

    // Another browser behind the same backend is another source.
    expect((await forgot(realm, { token, forwardedFor: '10.0.0.2' })).status).toBe(200);
    // Only the first address of a list counts (the browser's, as the backend saw it).
    expectSourceLimited(await forgot(realm, { token, forwardedFor: '10.0.0.1, 10.0.0.9' }));
    // None of that was counted against the backend's own address.
    expect((await forgot(realm, { token })).status).toBe(200);
    expect((await forgot(realm)).status).toBe(200);
    expectSourceLimited(await forgot(realm));
  });

  it("the header from a client without the capability, a bad token or no token is ignored: the caller's own address counts", async () => {
    const realm = await tightRealm();
    const ordinary = await backendToken(realm, []);
    const trusted = await backendToken(realm, [TRUSTED]);

    expect((await forgot(realm, { token: ordinary, forwardedFor: '10.0.0.3' })).status).toBe(200);
    expect((await forgot(realm, { token: 'not-a-token-at-all-0123456789', forwardedFor: '10.0.0.4' })).status).toBe(200);
    // A third call from this address, whatever it claims to forward for.
    expectSourceLimited(await forgot(realm, { token: ordinary, forwardedFor: '10.0.0.5' }));
    expectSourceLimited(await forgot(realm, { forwardedFor: '10.0.0.6' }));

    // Those addresses were never counted: the trusted forwarder still gets their full allowance.
    expect((await forgot(realm, { token: trusted, forwardedFor: '10.0.0.3' })).status).toBe(200);
    expect((await forgot(realm, { token: trusted, forwardedFor: '10.0.0.3' })).status).toBe(200);
    expectSourceLimited(await forgot(realm, { token: trusted, forwardedFor: '10.0.0.3' }));
    // A value that is no address is ignored even from a trusted forwarder.
    expectSourceLimited(await forgot(realm, { token: trusted, forwardedFor: 'browser-7' }));
  });

  it('a DPoP-bound token of a trusted forwarder names the source only with its proof (issue 30 item 2)', async () => {
    const realm = await tightRealm();
    const client = await createClient(realm.host, realm.admin.jar, {
      DisplayName: 'DPoP login backend',
      ClientType: 'Confidential',
      ConsentType: 'Implicit',
      RedirectUris: [],
      GrantTypes: ['client_credentials'],
      Scopes: [MANAGEMENT_SCOPE],
      Capabilities: [TRUSTED],
    });
    const key = await dpopKey();
    const issued = await dpopClientCredentials(realm.host, client.ClientId, client.ClientSecret!, MANAGEMENT_SCOPE, key);
    expect(issued.status, issued.text).toBe(200);
    const token = issued.body.access_token as string;
    const path = '/api/account/forgot-password';
    const send = async (forwardedFor: string, dpop: string | undefined) =>
      api(realm.host, 'POST', path, {
        headers: { authorization: `${dpop ? 'DPoP' : 'Bearer'} ${token}`, 'gatehouse-forwarded-for': forwardedFor, ...(dpop ? { dpop } : {}) },
        body: { Email: `someone-${++mailbox}@example.test` },
      });
    const fresh = () => proof(key, { htm: 'POST', htu: htuOf(realm.host, path), token });

    // Presented as a bearer token, or with a proof used before, the header is ignored: the caller's own address counts.
    expect((await send('10.0.0.1', undefined)).status).toBe(200);
    const used = await fresh();
    expect((await send('10.0.0.2', used)).status).toBe(200); // the forwarded source: its first
    expect((await send('10.0.0.3', used)).status).toBe(200); // a replay: the caller's second
    expectSourceLimited(await send('10.0.0.4', undefined));
    // With a fresh proof each time the forwarded address is the source, with its own allowance.
    expect((await send('10.0.0.4', await fresh())).status).toBe(200);
    expect((await send('10.0.0.4', await fresh())).status).toBe(200);
    expectSourceLimited(await send('10.0.0.4', await fresh()));
  });
});

import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CustomFetch } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cancelAtUpstream,
  CookieJar,
  loginAtUpstream,
  logoutAtUpstream,
  startOidcUpstream,
  type OidcUpstream,
} from '../../../../e2e/shared/peers/oidc-upstream';
import {
  finishUpstreamLogin,
  requestedScopes,
  startUpstreamLogin,
  upstreamClient,
  upstreamLogoutUrl,
  UpstreamOidcError,
  type UpstreamOidcConfig,
} from './upstream-oidc';
import { parseAllowList } from '../../../outbound/address-policy';

// Against a real upstream: panva's oidc-provider (e2e/shared/peers/oidc-upstream.ts) with its own users,
// on 127.0.0.1, which the outbound policy is told to allow (GATEHOUSE_OUTBOUND_ALLOW's part here).

const LOOPBACK_ALLOWED = parseAllowList('127.0.0.1');

const CALLBACK = 'http://rp.example.test/api/account/external-login/finish';
const LOGGED_OUT = 'http://rp.example.test/api/account/external-logout/logged-out';
const DISCOVERY = '/.well-known/openid-configuration';

let up: OidcUpstream;
let idTokenInUserinfoOnly: OidcUpstream;
let noLogout: OidcUpstream;

beforeAll(async () => {
  const clients = [
    { client_id: 'gatehouse', client_secret: 'upstream-secret-1', redirect_uris: [CALLBACK], post_logout_redirect_uris: [LOGGED_OUT] },
    { client_id: 'gatehouse-public', redirect_uris: [CALLBACK] },
  ];
  [up, idTokenInUserinfoOnly, noLogout] = await Promise.all([
    startOidcUpstream({ clients, claimsInIdToken: true }),
    startOidcUpstream({ clients }),
    startOidcUpstream({ clients, rpInitiatedLogout: false }),
  ]);
});

afterAll(async () => {
  await Promise.all([up?.stop(), idTokenInUserinfoOnly?.stop(), noLogout?.stop()]);
});

/** A provider of its own (a fresh id), so no test shares another's discovery cache entry. */
function config(peer: OidcUpstream, over: Partial<UpstreamOidcConfig> = {}): UpstreamOidcConfig {
  return {
    providerId: randomUUID(),
    version: 1,
    section: { Authority: peer.issuer, ClientId: 'gatehouse' },
    clientSecret: 'upstream-secret-1',
    allow: LOOPBACK_ALLOWED,
    ...over,
  };
}

async function failure(promise: Promise<unknown>): Promise<UpstreamOidcError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamOidcError);
  return err as UpstreamOidcError;
}

async function reason(promise: Promise<unknown>): Promise<string> {
  const err = await failure(promise);
  // Only an upstream that cannot be reached is "unreachable" (503); every other failure, a refused
  // address included (the settings are wrong: trying again will not help), is a failed sign-in.
  expect(err.unreachable).toBe(err.reason.includes('could not be reached'));
  return err.reason;
}

async function signIn(cfg: UpstreamOidcConfig, peer: OidcUpstream, user = peer.users[0], jar?: CookieJar) {
  const started = await startUpstreamLogin(cfg, CALLBACK);
  const callback = await loginAtUpstream(started.authorizationUrl, user.login, user.password, jar);
  return { ...started, callback: new URL(callback) };
}

describe('sign-in through an upstream OpenID provider', () => {
  it('asks for a code with S256 PKCE, state, nonce and the default scopes, and answers who signed in', async () => {
    const cfg = config(up);
    const { authorizationUrl, pending, callback } = await signIn(cfg, up);
    const asked = new URL(authorizationUrl).searchParams;
    expect(asked.get('response_type')).toBe('code');
    expect(asked.get('scope')).toBe('openid email profile');
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(asked.get('state')).toBe(pending.state);
    expect(asked.get('nonce')).toBe(pending.nonce);
    expect(asked.get('redirect_uri')).toBe(CALLBACK);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);

    const result = await finishUpstreamLogin(cfg, CALLBACK, callback, pending);
    const alice = up.users[0];
    expect(result.issuer).toBe(up.issuer);
    expect(result.subject).toBe(alice.sub);
    expect(result.claims).toMatchObject({
      email: alice.email,
      email_verified: true,
      given_name: alice.given_name,
      family_name: alice.family_name,
      nonce: pending.nonce,
    });
    expect(result.idToken.split('.')).toHaveLength(3);
  });

  it('reads userinfo when the ID token carries no e-mail, keeping the ID token claims on top', async () => {
    const peer = idTokenInUserinfoOnly;
    const cfg = config(peer);
    const before = peer.requests.get('/me') ?? 0;
    const { pending, callback } = await signIn(cfg, peer, peer.users[1]);
    const result = await finishUpstreamLogin(cfg, CALLBACK, callback, pending);
    const bob = peer.users[1];
    expect(peer.requests.get('/me')).toBe(before + 1);
    expect(result.claims).toMatchObject({
      sub: bob.sub,
      iss: peer.issuer,
      aud: 'gatehouse',
      email: bob.email,
      email_verified: false,
      family_name: bob.family_name,
    });
  });

  it('works as a public client (no secret) with PKCE alone', async () => {
    const cfg = config(up, { section: { Authority: up.issuer, ClientId: 'gatehouse-public' }, clientSecret: undefined });
    const { pending, callback } = await signIn(cfg, up);
    const result = await finishUpstreamLogin(cfg, CALLBACK, callback, pending);
    expect(result.subject).toBe(up.users[0].sub);
    expect(result.claims.aud).toBe('gatehouse-public');
  });

  it('refuses an answer whose state is not the pending one, or has none', async () => {
    const cfg = config(up);
    const { pending, callback } = await signIn(cfg, up);
    const forged = new URL(callback);
    forged.searchParams.set('state', `${pending.state}x`);
    expect(await reason(finishUpstreamLogin(cfg, CALLBACK, forged, pending))).toBe('state mismatch');
    forged.searchParams.delete('state');
    expect(await reason(finishUpstreamLogin(cfg, CALLBACK, forged, pending))).toBe('state mismatch');
    // The genuine answer still works: the forgeries redeemed nothing.
    expect((await finishUpstreamLogin(cfg, CALLBACK, callback, pending)).subject).toBe(up.users[0].sub);
  });

  it('refuses a replayed code', async () => {
    const cfg = config(up);
    const { pending, callback } = await signIn(cfg, up);
    await finishUpstreamLogin(cfg, CALLBACK, callback, pending);
    expect(await reason(finishUpstreamLogin(cfg, CALLBACK, callback, pending))).toBe('the code exchange failed: the upstream refused: invalid_grant');
  });

  it("refuses an ID token whose nonce is another login's, and a code redeemed with another login's verifier", async () => {
    const cfg = config(up);
    const first = await signIn(cfg, up);
    const other = await startUpstreamLogin(cfg, CALLBACK);
    const withOthersNonce = { ...first.pending, nonce: other.pending.nonce };
    expect(await reason(finishUpstreamLogin(cfg, CALLBACK, first.callback, withOthersNonce))).toMatch(/^the ID token is invalid: .*nonce/);

    const second = await signIn(cfg, up);
    const withOthersVerifier = { ...second.pending, codeVerifier: other.pending.codeVerifier };
    expect(await reason(finishUpstreamLogin(cfg, CALLBACK, second.callback, withOthersVerifier))).toBe(
      'the code exchange failed: the upstream refused: invalid_grant',
    );
    // The other login's whole pending record does not fit this answer either.
    expect(await reason(finishUpstreamLogin(cfg, CALLBACK, second.callback, other.pending))).toBe('state mismatch');
  });

  it("reports the upstream's refusal (the person pressed Cancel) as access_denied", async () => {
    const cfg = config(up);
    const { authorizationUrl, pending } = await startUpstreamLogin(cfg, CALLBACK);
    const callback = new URL(await cancelAtUpstream(authorizationUrl));
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(await reason(finishUpstreamLogin(cfg, CALLBACK, callback, pending))).toBe('the upstream refused: access_denied');
    // An error answer with another login's state is not believed either.
    callback.searchParams.set('state', 'not-ours');
    expect(await reason(finishUpstreamLogin(cfg, CALLBACK, callback, pending))).toBe('state mismatch');
  });
});

describe('discovery', () => {
  it('is cached per provider version: the same version asks once, a new version asks again', async () => {
    const cfg = config(up);
    const count = () => up.requests.get(DISCOVERY) ?? 0;
    const before = count();
    const [a, b] = await Promise.all([upstreamClient(cfg), upstreamClient(cfg)]);
    await startUpstreamLogin(cfg, CALLBACK);
    expect(a).toBe(b);
    expect(count()).toBe(before + 1);
    const bumped = await upstreamClient({ ...cfg, version: 2 });
    expect(bumped).not.toBe(a);
    expect(count()).toBe(before + 2);
    // A changed secret is seen even if the version was not bumped.
    expect(await upstreamClient({ ...cfg, clientSecret: 'rotated' })).not.toBe(a);
  });

  it('does not cache a failure: the next attempt asks again', async () => {
    let calls = 0;
    const flaky: CustomFetch = async (url, options) => {
      calls += 1;
      if (calls === 1) throw new TypeError('fetch failed', { cause: new Error('connect ECONNRESET') });
      return fetch(url, options as RequestInit);
    };
    const cfg = config(up, { fetchImpl: flaky });
    expect(await reason(upstreamClient(cfg))).toBe('discovery failed: the provider could not be reached');
    await expect(upstreamClient(cfg)).resolves.toBeDefined();
    expect(calls).toBe(2);
  });

  it('fails quickly when the Authority does not answer, saying so without the socket error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const started = Date.now();
    expect(await reason(upstreamClient(config(up, { section: { Authority: `http://127.0.0.1:${port}`, ClientId: 'x' } })))).toBe(
      'discovery failed: the provider could not be reached',
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('says what the upstream answered when it is not a discovery document', async () => {
    const cfg = config(up, { section: { Authority: `${up.issuer}/no-such-issuer`, ClientId: 'gatehouse' } });
    expect(await reason(upstreamClient(cfg))).toBe('discovery failed: unexpected HTTP response status code (404)');
  });

  it('gives up on an upstream that never answers after the timeout', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const started = Date.now();
      const cfg = config(up, { section: { Authority: `http://127.0.0.1:${port}`, ClientId: 'x' }, timeoutSeconds: 1 });
      expect(await reason(upstreamClient(cfg))).toBe('discovery failed: the provider could not be reached');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('refuses an http:// Authority unless GATEHOUSE_OUTBOUND_ALLOW lists its host, without a request', async () => {
    let calls = 0;
    const counting: CustomFetch = async (url, options) => {
      calls += 1;
      return fetch(url, options as RequestInit);
    };
    const byName = up.issuer.replace('127.0.0.1', 'localhost');
    const cfg = config(up, { section: { Authority: byName, ClientId: 'gatehouse' }, fetchImpl: counting });
    expect(await reason(upstreamClient(cfg))).toBe('discovery failed: the Authority must use https');
    expect(calls).toBe(0);
    // Listed by name, the same Authority is discovered (the peer's issuer is 127.0.0.1, hence the mismatch).
    expect(await reason(upstreamClient({ ...cfg, allow: parseAllowList('localhost') }))).toMatch(/issuer/);
    expect(calls).toBe(1);
  });

  it('refuses an Authority at an address the operator does not list, without connecting', async () => {
    const inside = createServer((_req, res) => res.end('{}'));
    let connections = 0;
    inside.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => inside.listen(0, '127.200.0.1', resolve));
    const port = (inside.address() as AddressInfo).port;
    try {
      for (const authority of [
        `https://127.200.0.1:${port}/any/path?x=1`,
        `https://2143813633:${port}`,
        `https://[::ffff:127.200.0.1]:${port}`,
        'https://169.254.169.254',
      ]) {
        expect(await reason(upstreamClient(config(up, { section: { Authority: authority, ClientId: 'x' } }))), authority).toBe(
          'discovery failed: the address is not allowed',
        );
      }
      // A name that resolves to refused addresses only (here with nothing listed) is refused when connecting.
      expect(await reason(upstreamClient(config(up, { section: { Authority: `https://localhost:${port}`, ClientId: 'x' }, allow: parseAllowList('') })))).toBe(
        'discovery failed: the address is not allowed',
      );
      expect(connections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => inside.close(() => resolve()));
    }
  });

  it('refuses a discovery document whose token, userinfo or JWKS endpoint is at a refused address', async () => {
    let metadata: Record<string, string> = {};
    const fake = createServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify(metadata)));
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    try {
      const base = { issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` };
      for (const [name, value] of [
        ['token_endpoint', 'https://169.254.169.254/token'],
        ['userinfo_endpoint', 'https://10.0.0.1/me'],
        ['jwks_uri', 'https://[fd00:ec2::254]/jwks'],
        ['token_endpoint', 'https://127.200.0.1/token'],
      ]) {
        metadata = { ...base, [name]: value };
        expect(await reason(upstreamClient(config(up, { section: { Authority: issuer, ClientId: 'x' } }))), value).toBe(
          `discovery failed: the upstream's ${name} is at an address that is not allowed`,
        );
      }
      metadata = { ...base, token_endpoint: 'http://token.example.com/token' };
      expect(await reason(upstreamClient(config(up, { section: { Authority: issuer, ClientId: 'x' } })))).toBe(
        "discovery failed: the upstream's token_endpoint must be an https URL",
      );
    } finally {
      fake.closeAllConnections();
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  });

  it('always asks for openid, once, first', () => {
    expect(requestedScopes({ Authority: 'https://x', ClientId: 'c' })).toBe('openid email profile');
    expect(requestedScopes({ Authority: 'https://x', ClientId: 'c', Scopes: '  email openid groups email ' })).toBe('openid email groups');
    expect(requestedScopes({ Authority: 'https://x', ClientId: 'c', Scopes: '' })).toBe('openid email profile');
  });
});

describe('RP-initiated logout at the upstream', () => {
  it("names the upstream's end_session endpoint with id_token_hint and post_logout_redirect_uri, and the upstream honours it", async () => {
    const cfg = config(up);
    const jar = new CookieJar();
    const { pending, callback } = await signIn(cfg, up, up.users[0], jar);
    const { idToken } = await finishUpstreamLogin(cfg, CALLBACK, callback, pending);

    const url = new URL((await upstreamLogoutUrl(cfg, idToken, LOGGED_OUT)) ?? 'missing:');
    expect(url.origin + url.pathname).toBe(`${up.issuer}/session/end`);
    expect(url.searchParams.get('id_token_hint')).toBe(idToken);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(LOGGED_OUT);
    expect(url.searchParams.get('client_id')).toBe('gatehouse');

    expect(await logoutAtUpstream(url.href, jar)).toBe(LOGGED_OUT);
    // The upstream session is gone: the next sign-in shows the login form again rather than answering at once.
    const again = await startUpstreamLogin(cfg, CALLBACK);
    await expect(loginAtUpstream(again.authorizationUrl, 'alice', 'wrong', jar)).rejects.toThrow(/Wrong login or password/);
  });

  it('answers undefined when the upstream has no end_session_endpoint', async () => {
    expect(await upstreamLogoutUrl(config(noLogout), 'any.id.token', LOGGED_OUT)).toBeUndefined();
  });
});

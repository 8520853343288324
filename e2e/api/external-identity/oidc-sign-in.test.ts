import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_UPSTREAM_USERS, loginAtUpstream, startOidcUpstream, type OidcUpstream } from '../../shared/peers/oidc-upstream';
import * as oidc from 'openid-client';
import { REDIRECT, webClientBody } from '../oauth/fixtures';
import { createClient, discover, followAsBrowser } from '../support/oauth';
import { api, CookieJar, eventually, expectProblem, realmWithAdmin, suite, type SignedIn } from '../support/harness';
import { realmSql } from '../support/realm-sql';
import { makeUser, signedIn } from '../users/fixtures';

// Sign-in with an upstream OpenID provider (spec 4.5; CONTRACT.md "External identity") against panva's
// oidc-provider, a peer nobody here wrote: start (302 with PKCE, state, nonce and a browser-bound
// state cookie), the upstream's login, our callback, then linking: JIT, a vouched-for e-mail, the
// signed-in person's confirmed link (linking.test.ts has the rest of it), refusals, the
// UserUpdateScript, unlinking and RP-initiated logout.
const PROVIDERS = '/api/admin/login-providers';
const [alice, bob] = DEFAULT_UPSTREAM_USERS;

describe('external sign-in with OIDC', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  let upstream: OidcUpstream;
  let providerId: string;
  const clientId = `gatehouse-${randomBytes(3).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');

  async function provider(body: Record<string, unknown>): Promise<string> {
    const res = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: { Name: 'Upstream', Flavor: 'Oidc', Oidc: { Authority: upstream.issuer, ClientId: clientId }, ...body },
    });
    expect(res.status, res.text).toBe(201);
    const secret = await api(host, 'POST', `${PROVIDERS}/${res.body.Id}/secret`, { cookie: admin.jar, body: { ClientSecret: clientSecret } });
    expect(secret.status, secret.text).toBe(204);
    return res.body.Id;
  }

  /** start → the upstream's login → our callback, like a browser holding `jar`; answers the callback's response. */
  async function signInThroughUpstream(id: string, login: string, password: string, jar = new CookieJar(), returnUrl = '/account') {
    const start = await api(host, 'GET', `/api/account/external-login/${id}/start?returnUrl=${encodeURIComponent(returnUrl)}`, { cookie: jar });
    expect(start.status, start.text).toBe(302);
    const authorize = new URL(start.headers.location!);
    const callback = new URL(await loginAtUpstream(authorize.href, login, password));
    const finish = await api(host, 'GET', callback.pathname + callback.search, { cookie: jar });
    return { start, authorize, callback, finish, jar };
  }

  /** The account page's Link: POST start → the upstream's login → our callback → the confirmation's POST. */
  async function linkThroughUpstream(id: string, login: string, password: string, jar: CookieJar) {
    const start = await api(host, 'POST', '/api/account/external-links/start', { cookie: jar, body: { LoginProviderId: id } });
    expect(start.status, start.text).toBe(200);
    const callback = new URL(await loginAtUpstream(start.body.Location, login, password));
    const finish = await api(host, 'GET', callback.pathname + callback.search, { cookie: jar });
    const confirm = finish.headers.location === '/account/link' ? await api(host, 'POST', '/api/account/external-links/confirm', { cookie: jar }) : undefined;
    return { finish, confirm };
  }

  beforeAll(async () => {
    ({ host, slug, admin } = await realmWithAdmin());
    const redirectUri = `http://${slug}.localhost:${suite().port}/api/account/external-login/finish`;
    upstream = await startOidcUpstream({
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [redirectUri],
          post_logout_redirect_uris: [`http://${slug}.localhost:${suite().port}/logged-out`],
        },
      ],
    });
    providerId = await provider({});
  }, 60_000);

  afterAll(async () => {
    await upstream?.stop();
  });

  it('starts with the code flow, S256 PKCE, state and nonce, and binds the state to the browser', async () => {
    const jar = new CookieJar();
    const start = await api(host, 'GET', `/api/account/external-login/${providerId}/start?returnUrl=/account`, { cookie: jar });
    expect(start.status, start.text).toBe(302);
    const url = new URL(start.headers.location!);
    expect(url.origin).toBe(new URL(upstream.issuer).origin);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    expect(url.searchParams.get('redirect_uri')).toBe(`http://${slug}.localhost:${suite().port}/api/account/external-login/finish`);
    const state = url.searchParams.get('state')!;
    expect(state.length).toBeGreaterThanOrEqual(43);
    expect(url.searchParams.get('nonce')!.length).toBeGreaterThanOrEqual(43);
    expect(start.setCookies.join('\n')).toMatch(new RegExp(`gatehouse_ext=${state};.*HttpOnly`, 'i'));
  });

  it('creates the person just in time, signs them in and links the identity', async () => {
    const { finish, jar } = await signInThroughUpstream(providerId, alice.login, alice.password);
    expect(finish.status, finish.text).toBe(302);
    expect(finish.headers.location).toBe('/account');
    const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ Email: alice.email, EmailConfirmed: true, Firstname: 'Alice', Lastname: 'Liddell' });
    const links = await api(host, 'GET', '/api/account/external-links', { cookie: jar });
    expect(links.body).toEqual([expect.objectContaining({ LoginProviderId: providerId, Name: 'Upstream', Issuer: upstream.issuer, Subject: alice.sub })]);
    // The second sign-in finds the link: the same person, no new account.
    const again = await signInThroughUpstream(providerId, alice.login, alice.password);
    expect(again.finish.status).toBe(302);
    const me2 = await api(host, 'GET', '/api/account/me', { cookie: again.jar });
    expect(me2.body.Id).toBe(me.body.Id);
    const count = await realmSql<{ n: number }>(slug, 'SELECT COUNT(*) AS n FROM "User" WHERE "emailNormalized" = $1', [alice.email]);
    expect(Number(count[0].n)).toBe(1);
    // The security log names the provider.
    await eventually(async () => {
      const log = await api(host, 'GET', '/api/admin/auth-log?limit=200', { cookie: admin.jar });
      expect(log.text).toContain('"provider":"Upstream"');
    });
  });

  it('refuses an answer in a browser that did not start the sign-in (login CSRF)', async () => {
    const { callback } = await signInThroughUpstream(providerId, alice.login, alice.password);
    // The same callback URL opened in another browser: no state cookie.
    const other = new CookieJar();
    const finish = await api(host, 'GET', callback.pathname + callback.search, { cookie: other });
    expect(finish.status).toBe(302);
    expect(finish.headers.location).toBe('/login?error=external-failed');
    expect(await api(host, 'GET', '/api/account/me', { cookie: other }).then((r) => r.status)).toBe(401);
  });

  it('refuses a replayed callback: the sign-in in flight is used once', async () => {
    const { callback, jar, finish } = await signInThroughUpstream(providerId, alice.login, alice.password);
    expect(finish.status).toBe(302);
    // Put the state cookie back, as an attacker replaying the whole request would.
    const replay = await api(host, 'GET', callback.pathname + callback.search, {
      cookie: `gatehouse_ext=${callback.searchParams.get('state')}; ${jar.toString()}`,
    });
    expect(replay.headers.location).toBe('/login?error=external-failed');
  });

  it('does not link an e-mail the upstream did not verify, and refuses when JIT would take that address', async () => {
    await makeUser(host, admin.jar, { Email: bob.email });
    const { finish, jar } = await signInThroughUpstream(providerId, bob.login, bob.password);
    expect(finish.headers.location).toBe('/login?error=external-refused');
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(401);
    const links = await realmSql<{ n: number }>(slug, 'SELECT COUNT(*) AS n FROM "ExternalLink" WHERE "subject" = $1', [bob.sub]);
    expect(Number(links[0].n)).toBe(0);
  });

  it('links to the signed-in person who asked from the account page and confirmed, and unlinks under the last-method rule', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const other = await provider({ Name: 'Second door', Jit: { Enabled: false } });
    const { finish } = await linkThroughUpstream(other, alice.login, alice.password, jar);
    // alice's identity at this issuer is already linked to the JIT person: taken.
    expect(finish.headers.location).toBe('/login?error=external-refused');

    // bob is linked nowhere yet (his unverified address never linked, above).
    const linked = await linkThroughUpstream(other, bob.login, bob.password, jar);
    expect(linked.finish.status).toBe(302);
    expect(linked.finish.headers.location).toBe('/account/link');
    expect(linked.confirm?.status, linked.confirm?.text).toBe(204);
    const links = await api(host, 'GET', '/api/account/external-links', { cookie: jar });
    expect(links.body).toHaveLength(1);
    expect(links.body[0]).toMatchObject({ Subject: bob.sub, Name: 'Second door' });
    // The person has a password too, so the link may go; the pair is free again.
    const unlink = await api(host, 'DELETE', `/api/account/external-links/${links.body[0].Id}`, { cookie: jar });
    expect(unlink.status, unlink.text).toBe(204);
    expect((await api(host, 'GET', '/api/account/external-links', { cookie: jar })).body).toEqual([]);
  });

  it('refuses to remove a just-in-time person’s only link: 400 Idp.LastAuthMethod, for them and for an administrator', async () => {
    const { jar } = await signInThroughUpstream(providerId, alice.login, alice.password);
    const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
    const links = await api(host, 'GET', '/api/account/external-links', { cookie: jar });
    expectProblem(await api(host, 'DELETE', `/api/account/external-links/${links.body[0].Id}`, { cookie: jar }), 400, 'Idp.LastAuthMethod');
    const adminView = await api(host, 'GET', `/api/admin/users/${me.body.Id}/external-links`, { cookie: admin.jar });
    expect(adminView.body).toEqual(links.body);
    expectProblem(
      await api(host, 'DELETE', `/api/admin/users/${me.body.Id}/external-links/${links.body[0].Id}`, { cookie: admin.jar }),
      400,
      'Idp.LastAuthMethod',
    );
    expectProblem(await api(host, 'DELETE', `/api/admin/users/${me.body.Id}/external-links/no-such-link`, { cookie: admin.jar }), 404, 'ExternalLink.NotFound');
  });

  it('refuses a person the provider does not create when JIT is off', async () => {
    const closed = await provider({ Name: 'Closed', Jit: { Enabled: false } });
    const fresh = await startOidcUpstream({
      clients: [
        { client_id: clientId, client_secret: clientSecret, redirect_uris: [`http://${slug}.localhost:${suite().port}/api/account/external-login/finish`] },
      ],
      users: [{ ...alice, sub: 'u-dora', login: 'dora', email: 'dora@upstream.test' }],
    });
    try {
      const put = await api(host, 'PUT', `${PROVIDERS}/${closed}`, {
        cookie: admin.jar,
        body: { Name: 'Closed', Jit: { Enabled: false }, Oidc: { Authority: fresh.issuer, ClientId: clientId } },
      });
      expect(put.status, put.text).toBe(200);
      const { finish } = await signInThroughUpstream(closed, 'dora', alice.password);
      expect(finish.headers.location).toBe('/login?error=external-refused');
      await eventually(async () => {
        const log = await api(host, 'GET', '/api/admin/auth-log?limit=200', { cookie: admin.jar });
        expect(log.text).toMatch(/no-account/);
      });
    } finally {
      await fresh.stop();
    }
  });

  it('runs the UserUpdateScript: it may update the person or deny the sign-in, in the security log', async () => {
    const scripted = await provider({
      Name: 'Scripted',
      UserUpdateScript: `if (claims.email === '${alice.email}') return { Deny: 'alice is on leave' }; return { Acronym: 'SCR' };`,
    });
    const denied = await signInThroughUpstream(scripted, alice.login, alice.password);
    expect(denied.finish.headers.location).toBe('/login?error=external-refused');
    await eventually(async () => {
      const log = await api(host, 'GET', '/api/admin/auth-log?limit=200', { cookie: admin.jar });
      expect(log.text).toContain('alice is on leave');
    });
    const bad = await provider({ Name: 'Looping', UserUpdateScript: 'while (true) {}' });
    const looped = await signInThroughUpstream(bad, alice.login, alice.password);
    expect(looped.finish.headers.location).toBe('/login?error=external-refused');
    // The server is still healthy after a script that never ends.
    expect((await api(host, 'GET', '/api/account/external-logins')).status).toBe(200);
  });

  it('ends the upstream session too: RP-initiated logout with the ID token it issued', async () => {
    const { jar } = await signInThroughUpstream(providerId, alice.login, alice.password);
    const out = await api(host, 'GET', `/api/account/external-logout/${providerId}`, { cookie: jar });
    expect(out.status, out.text).toBe(302);
    const end = new URL(out.headers.location!);
    expect(end.origin).toBe(new URL(upstream.issuer).origin);
    expect(end.searchParams.get('id_token_hint')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`http://${slug}.localhost:${suite().port}/logged-out`);
    expect((await api(host, 'GET', '/api/account/me', { cookie: jar })).status).toBe(401);
    // Signed in with a password: no upstream session, so /logged-out.
    const user = await makeUser(host, admin.jar);
    const local = await signedIn(host, user);
    const plain = await api(host, 'GET', `/api/account/external-logout/${providerId}`, { cookie: local });
    expect(plain.headers.location).toBe('/logged-out');
    // The JSON logout with EndIdpSession answers the upstream's URL.
    const again = await signInThroughUpstream(providerId, alice.login, alice.password);
    const json = await api(host, 'POST', '/api/account/logout', { cookie: again.jar, body: { EndIdpSession: true } });
    expect(json.status, json.text).toBe(200);
    expect(json.body.SignedOut).toBe(true);
    expect(json.body.LogoutUrl).toMatch(/id_token_hint=/);
  });

  it('carries the OAuth sign-in bridge through: /connect/authorize → the sign-in page → the upstream → the client’s callback', async () => {
    const client = await createClient(host, admin.jar, webClientBody({ Scopes: ['openid', 'profile', 'email'] }));
    const config = await discover(host, client.ClientId, client.ClientSecret);
    const verifier = oidc.randomPKCECodeVerifier();
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid email',
      state: 'bridge',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const jar = new CookieJar();
    const { location: login } = await followAsBrowser(host, authorize.pathname + authorize.search, jar, /^\/login$/);
    expect(login.pathname).toBe('/login');
    const bridge = login.searchParams.get('redirect')!;
    expect(bridge).toMatch(/^\/connect\//);
    const { finish } = await signInThroughUpstream(providerId, alice.login, alice.password, jar, bridge);
    expect(finish.headers.location).toBe(bridge);
    const { location } = await followAsBrowser(host, bridge, jar);
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('bridge');
    const tokens = await oidc.authorizationCodeGrant(config, location, { pkceCodeVerifier: verifier, expectedState: 'bridge' });
    const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(userinfo.email).toBe(alice.email);
  });

  it('refuses a returnUrl to another origin: the sign-in lands on the realm instead', async () => {
    const { finish } = await signInThroughUpstream(providerId, alice.login, alice.password, new CookieJar(), '//evil.example/steal');
    expect(finish.status).toBe(302);
    expect(finish.headers.location).toBe('/');
  });

  it('sends a browser back to the sign-in page when the upstream cannot be reached', async () => {
    const dead = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: { Name: 'Down', Flavor: 'Oidc', Oidc: { Authority: 'http://127.0.0.1:9/', ClientId: 'x' } },
    });
    const start = await api(host, 'GET', `/api/account/external-login/${dead.body.Id}/start`);
    expect(start.status).toBe(302);
    expect(start.headers.location).toBe('/login?error=external-unavailable');
    const unknown = await api(host, 'GET', `/api/account/external-login/no-such-provider/start`);
    expect(unknown.headers.location).toBe('/login?error=external-failed');
  });
});

import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, type CookieJar } from '../support/harness';
import { createClient } from '../support/oauth';
import { makeUser, signedIn } from '../users/fixtures';
import { authorize, codeFlowTokens, formIn, oauthRealm, POST_LOGOUT, REDIRECT, rp, submit, userinfo, webClientBody, type OAuthRealm } from './fixtures';

// One browser session for the hosted pages and the engine (issue 4.2): RP-initiated logout
// (OpenID Connect RP-Initiated Logout 1.0) at /connect/endsession ends the Gatehouse session too,
// and signing out of the hosted pages means the next authorization request goes to sign-in.
const SESSION_COOKIE = 'gatehouse_session';

describe('end-session', () => {
  let realm: OAuthRealm;
  let client: { ClientId: string; ClientSecret?: string };
  let config: oidc.Configuration;

  beforeAll(async () => {
    realm = await oauthRealm();
    client = await createClient(realm.host, realm.admin.jar, webClientBody());
    config = await rp(realm.host, client.ClientId, client.ClientSecret);
  });

  /** A person of the realm signed in to the hosted pages, and an ID token the client got for them. */
  async function signedInPerson() {
    const user = await makeUser(realm.host, realm.admin.jar);
    const jar = await signedIn(realm.host, user);
    const tokens = await codeFlowTokens(realm.host, config, jar, 'openid profile');
    return { user, jar, tokens, sessionCookie: jar.get(SESSION_COOKIE)! };
  }

  const me = (cookie: string | CookieJar) =>
    api(realm.host, 'GET', '/api/account/me', { cookie: typeof cookie === 'string' ? `${SESSION_COOKIE}=${cookie}` : cookie });

  it('discovery advertises the end-session endpoint', () => {
    expect(config.serverMetadata().end_session_endpoint).toBe(`http://${realm.host}/connect/endsession`);
  });

  it('confirmed logout goes to the registered post-logout URI and ends the Gatehouse session too', async () => {
    const { jar, tokens, sessionCookie } = await signedInPerson();
    expect((await me(jar)).status).toBe(200);

    const state = oidc.randomState();
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: POST_LOGOUT, state });
    expect(url.pathname).toBe('/connect/endsession');
    const page = await api(realm.host, 'GET', url.pathname + url.search, { cookie: jar, headers: { accept: 'text/html' } });
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('Sign out?');
    const form = formIn(page.text, 'op.logoutForm');
    expect(form.fields.xsrf).toBeTruthy();

    const done = await submit(realm.host, jar, form, { logout: 'yes' });
    expect(done.status, done.text).toBe(303);
    const back = new URL(done.headers.location!);
    expect(back.origin + back.pathname).toBe(POST_LOGOUT);
    expect(back.searchParams.get('state')).toBe(state);

    // The browser was told to drop its session cookie, and the session itself is over server-side.
    expect(jar.get(SESSION_COOKIE)).toBeUndefined();
    expect((await me(sessionCookie)).status).toBe(401);
    // The client's tokens from that session are revoked with it.
    expect((await userinfo(realm.host, tokens.access_token)).status).toBe(401);
    // And a new authorization request needs a new sign-in.
    const again = await authorize(realm.host, config, jar, 'openid');
    expect(again.callback.pathname, again.page.hops.join(' -> ')).toBe('/login');
  });

  it('"stay signed in" returns to the client, ends only that client’s grant, and keeps the Gatehouse session', async () => {
    const { jar, tokens, sessionCookie } = await signedInPerson();
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: POST_LOGOUT });
    const page = await api(realm.host, 'GET', url.pathname + url.search, { cookie: jar, headers: { accept: 'text/html' } });
    const done = await submit(realm.host, jar, formIn(page.text, 'op.logoutForm'));
    expect(done.status, done.text).toBe(303);
    expect(done.headers.location).toBe(POST_LOGOUT);
    expect((await me(sessionCookie)).status).toBe(200);
    expect((await userinfo(realm.host, tokens.access_token)).status).toBe(401);
    // Still signed in: the next authorization request comes straight back with a code.
    const again = await authorize(realm.host, config, jar, 'openid');
    expect(again.callback.origin + again.callback.pathname, again.page.hops.join(' -> ')).toBe(REDIRECT);
  });

  it('signing out of the hosted pages sends the next authorization request to sign-in', async () => {
    const { jar, sessionCookie } = await signedInPerson();
    const out = await api(realm.host, 'POST', '/api/account/logout', { cookie: jar });
    expect(out.status, out.text).toBeLessThan(300);
    expect((await me(sessionCookie)).status).toBe(401);
    // The jar still holds the engine's own session cookie; it must not count on its own.
    expect(jar.get('gatehouse_oidc')).toBeTruthy();
    const again = await authorize(realm.host, config, jar, 'openid');
    expect(again.callback.pathname, again.page.hops.join(' -> ')).toBe('/login');
    expect(again.callback.searchParams.get('redirect')).toMatch(/^\/connect\/interaction\//);
    // prompt=none says so instead of asking.
    const silent = await authorize(realm.host, config, jar, 'openid', { prompt: 'none' });
    expect(silent.callback.origin + silent.callback.pathname).toBe(REDIRECT);
    expect(silent.callback.searchParams.get('error')).toBe('login_required');
  });

  it('the same jar signing in as someone else is not served the previous person’s engine session', async () => {
    const first = await signedInPerson();
    await api(realm.host, 'POST', '/api/account/logout', { cookie: first.jar });
    const other = await makeUser(realm.host, realm.admin.jar);
    const login = await api(realm.host, 'POST', '/api/account/login', { cookie: first.jar, body: { UserName: other.userName, Password: other.password } });
    expect(login.status, login.text).toBe(200);
    const tokens = await codeFlowTokens(realm.host, config, first.jar, 'openid');
    expect(tokens.claims()?.sub).toBe(other.id);
  });

  it('an unregistered post-logout URI is refused on the engine’s error page, without a redirect', async () => {
    const { jar, tokens } = await signedInPerson();
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: 'https://evil.example.com/' });
    const res = await api(realm.host, 'GET', url.pathname + url.search, { cookie: jar, headers: { accept: 'text/html' } });
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('post_logout_redirect_uri not registered');
    expect(res.text).not.toContain('evil.example.com');
    expect((await me(jar)).status).toBe(200);
  });

  // An anonymous engine session (it holds only a form's xsrf secret) survives a missing browser session.
  it('logging out of the client after signing out of the hosted pages still ends at the post-logout URI', async () => {
    const { jar, tokens } = await signedInPerson();
    await api(realm.host, 'POST', '/api/account/logout', { cookie: jar });
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: POST_LOGOUT });
    const page = await api(realm.host, 'GET', url.pathname + url.search, { cookie: jar, headers: { accept: 'text/html' } });
    expect(page.status, page.text).toBe(200);
    // Nobody is signed in, so the engine skips the question and posts the form itself.
    const form = formIn(page.text);
    expect(form.fields.logout).toBe('yes');
    const done = await submit(realm.host, jar, form);
    expect(done.status, done.text).toBe(303);
    expect(done.headers.location).toBe(POST_LOGOUT);
  });

  it('end-session for a signed-in browser without a hint still asks, and ends the session', async () => {
    const { jar, sessionCookie } = await signedInPerson();
    const page = await api(realm.host, 'GET', '/connect/endsession', { cookie: jar, headers: { accept: 'text/html' } });
    expect(page.status, page.text).toBe(200);
    const done = await submit(realm.host, jar, formIn(page.text, 'op.logoutForm'), { logout: 'yes' });
    expect(done.status).toBe(303);
    const landing = await api(realm.host, 'GET', new URL(done.headers.location!).pathname, { cookie: jar, headers: { accept: 'text/html' } });
    expect(landing.status).toBe(200);
    expect(landing.text).toContain('You are signed out');
    expect((await me(sessionCookie)).status).toBe(401);
  });
});

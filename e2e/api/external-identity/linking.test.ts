import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_UPSTREAM_USERS, loginAtUpstream, startOidcUpstream, type OidcUpstream } from '../../shared/peers/oidc-upstream';
import { api, expectProblem, realmWithAdmin, suite, type CookieJar, type SignedIn } from '../support/harness';
import { realmSql } from '../support/realm-sql';
import { makeUser, signedIn, type MadeUser } from '../users/fixtures';

// Issue 30 item 6: linking an upstream identity is an explicit act. A navigation to the sign-in
// start never links to whoever's cookie comes along; a link starts with a CSRF-checked POST of the
// account page, must come back to the session that asked, and waits for that person's confirmation
// (a same-origin POST) on a page that names the upstream account. Against panva's oidc-provider as
// the upstream (e2e/shared/peers/oidc-upstream.ts).
const PROVIDERS = '/api/admin/login-providers';
const [alice, bob] = DEFAULT_UPSTREAM_USERS;
const START = '/api/account/external-links/start';
const PENDING = '/api/account/external-links/pending';
const CONFIRM = '/api/account/external-links/confirm';

describe('linking an upstream account', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  let upstream: OidcUpstream;
  let providerId: string;
  const clientId = `gatehouse-${randomBytes(3).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');

  const linksOf = async (jar: CookieJar) => (await api(host, 'GET', '/api/account/external-links', { cookie: jar })).body as { Subject: string }[];
  const linkRows = async (sub: string) =>
    Number((await realmSql<{ n: number }>(slug, 'SELECT COUNT(*) AS n FROM "ExternalLink" WHERE "subject" = $1', [sub]))[0].n);

  /** The account page's Link button up to the upstream's answer at our callback (in `finishJar`). */
  async function startLinkAndAnswer(jar: CookieJar, who: { login: string; password: string }, finishJar = jar) {
    const start = await api(host, 'POST', START, { cookie: jar, body: { LoginProviderId: providerId } });
    expect(start.status, start.text).toBe(200);
    expect(new URL(start.body.Location).origin).toBe(new URL(upstream.issuer).origin);
    const callback = new URL(await loginAtUpstream(start.body.Location, who.login, who.password));
    return api(host, 'GET', callback.pathname + callback.search, { cookie: finishJar });
  }

  async function person(): Promise<{ user: MadeUser; jar: CookieJar }> {
    const user = await makeUser(host, admin.jar);
    return { user, jar: await signedIn(host, user) };
  }

  beforeAll(async () => {
    ({ host, slug, admin } = await realmWithAdmin());
    upstream = await startOidcUpstream({
      clients: [
        { client_id: clientId, client_secret: clientSecret, redirect_uris: [`http://${slug}.localhost:${suite().port}/api/account/external-login/finish`] },
      ],
    });
    const res = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: { Name: 'Upstream', Flavor: 'Oidc', Oidc: { Authority: upstream.issuer, ClientId: clientId } },
    });
    expect(res.status, res.text).toBe(201);
    providerId = res.body.Id;
    expect((await api(host, 'POST', `${PROVIDERS}/${providerId}/secret`, { cookie: admin.jar, body: { ClientSecret: clientSecret } })).status).toBe(204);
  }, 60_000);

  afterAll(async () => {
    await upstream?.stop();
  });

  it("a signed-in person sent through the sign-in start with someone else's upstream account gets nothing linked", async () => {
    const victim = await person();
    // A page elsewhere navigates the victim to the sign-in start; the upstream answers for the
    // attacker's account (bob: linked to no one, so this realm would create him just in time).
    const start = await api(host, 'GET', `/api/account/external-login/${providerId}/start?returnUrl=/account`, { cookie: victim.jar });
    expect(start.status, start.text).toBe(302);
    const callback = new URL(await loginAtUpstream(start.headers.location!, bob.login, bob.password));
    const finish = await api(host, 'GET', callback.pathname + callback.search, { cookie: victim.jar });
    expect(finish.status).toBe(302);
    expect(finish.headers.location).toBe('/login?error=external-refused');
    expect(await linksOf(victim.jar)).toEqual([]);
    expect(await linkRows(bob.sub)).toBe(0);
    // Nor was the victim's session swapped for another person's.
    const me = await api(host, 'GET', '/api/account/me', { cookie: victim.jar });
    expect(me.status).toBe(200);
    expect(me.body.Id).toBe(victim.user.id);
  });

  it('a signed-in person who signs in again with their own linked account is simply signed in', async () => {
    const { jar } = await person();
    expect((await startLinkAndAnswer(jar, alice)).headers.location).toBe('/account/link');
    expect((await api(host, 'POST', CONFIRM, { cookie: jar })).status).toBe(204);
    const start = await api(host, 'GET', `/api/account/external-login/${providerId}/start?returnUrl=/account`, { cookie: jar });
    const callback = new URL(await loginAtUpstream(start.headers.location!, alice.login, alice.password));
    const finish = await api(host, 'GET', callback.pathname + callback.search, { cookie: jar });
    expect(finish.headers.location).toBe('/account');
    // Unlink again: the other tests link alice and bob afresh.
    const [link] = (await api(host, 'GET', '/api/account/external-links', { cookie: jar })).body;
    expect((await api(host, 'DELETE', `/api/account/external-links/${link.Id}`, { cookie: jar })).status).toBe(204);
  });

  it('links through the POST start, a confirmation page naming the upstream account, and its POST', async () => {
    const { jar } = await person();
    const finish = await startLinkAndAnswer(jar, bob);
    expect(finish.status).toBe(302);
    expect(finish.headers.location).toBe('/account/link');
    expect(finish.setCookies.join('\n')).toMatch(/gatehouse_link=[^;]+;.*HttpOnly/i);
    // Nothing is linked before the person says yes.
    expect(await linkRows(bob.sub)).toBe(0);
    const pending = await api(host, 'GET', PENDING, { cookie: jar });
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body).toMatchObject({ LoginProviderId: providerId, Provider: 'Upstream', Account: bob.email, Issuer: upstream.issuer, Subject: bob.sub });
    const confirm = await api(host, 'POST', CONFIRM, { cookie: jar });
    expect(confirm.status, confirm.text).toBe(204);
    expect(await linksOf(jar)).toEqual([expect.objectContaining({ Subject: bob.sub })]);
    // The pending link was used once.
    expectProblem(await api(host, 'POST', CONFIRM, { cookie: `gatehouse_link=x; ${jar.toString()}` }), 404, 'ExternalLink.NotFound');
    const [link] = (await api(host, 'GET', '/api/account/external-links', { cookie: jar })).body;
    expect((await api(host, 'DELETE', `/api/account/external-links/${link.Id}`, { cookie: jar })).status).toBe(204);
  });

  it('refuses a confirmation without Origin or from another site, and a start from another site', async () => {
    const { jar } = await person();
    expect((await startLinkAndAnswer(jar, bob)).headers.location).toBe('/account/link');
    expectProblem(await api(host, 'POST', CONFIRM, { cookie: jar, browser: false }), 403, 'Request.CsrfRejected');
    expectProblem(await api(host, 'POST', CONFIRM, { cookie: jar, headers: { origin: 'http://evil.example' } }), 403, 'Request.CsrfRejected');
    expectProblem(await api(host, 'POST', CONFIRM, { cookie: jar, headers: { 'sec-fetch-site': 'cross-site' } }), 403, 'Request.CsrfRejected');
    const sibling = `http://other.${slug}.localhost:${suite().port}`;
    expectProblem(await api(host, 'POST', CONFIRM, { cookie: jar, headers: { origin: sibling } }), 403, 'Request.CsrfRejected');
    expect(await linkRows(bob.sub)).toBe(0);
    // The refused attempts did not use it up: the person can still decline it.
    expect((await api(host, 'DELETE', PENDING, { cookie: jar })).status).toBe(204);
    expectProblem(await api(host, 'POST', CONFIRM, { cookie: jar }), 404, 'ExternalLink.NotFound');
    expect(await linkRows(bob.sub)).toBe(0);

    const crossSite = await api(host, 'POST', START, { cookie: jar, body: { LoginProviderId: providerId }, headers: { origin: 'http://evil.example' } });
    expectProblem(crossSite, 403, 'Request.CsrfRejected');
    expectProblem(await api(host, 'POST', START, { body: { LoginProviderId: providerId } }), 401, 'Auth.Unauthenticated');
    expectProblem(await api(host, 'POST', START, { cookie: jar, body: { LoginProviderId: 'no-such-provider' } }), 404, 'LoginProvider.NotFound');
  });

  it('refuses a link finished in another session, and a confirmation from another session', async () => {
    const { user, jar } = await person();
    // The same person's other session, holding the first session's state cookie.
    const other = await signedIn(host, user);
    const start = await api(host, 'POST', START, { cookie: jar, body: { LoginProviderId: providerId } });
    other.update([`gatehouse_ext=${jar.get('gatehouse_ext')}`]);
    const callback = new URL(await loginAtUpstream(start.body.Location, bob.login, bob.password));
    const finish = await api(host, 'GET', callback.pathname + callback.search, { cookie: other });
    expect(finish.headers.location).toBe('/login?error=external-failed');
    expect(await linkRows(bob.sub)).toBe(0);

    // Finished in its own session, the pending link's key copied into another person's browser.
    expect((await startLinkAndAnswer(jar, bob)).headers.location).toBe('/account/link');
    const stranger = (await person()).jar;
    stranger.update([`gatehouse_link=${jar.get('gatehouse_link')}`]);
    expectProblem(await api(host, 'GET', PENDING, { cookie: stranger }), 404, 'ExternalLink.NotFound');
    expectProblem(await api(host, 'POST', CONFIRM, { cookie: stranger }), 404, 'ExternalLink.NotFound');
    other.update([`gatehouse_link=${jar.get('gatehouse_link')}`]);
    expectProblem(await api(host, 'POST', CONFIRM, { cookie: other }), 404, 'ExternalLink.NotFound');
    expect(await linkRows(bob.sub)).toBe(0);
    // The session that asked still may.
    expect((await api(host, 'POST', CONFIRM, { cookie: jar })).status).toBe(204);
    expect(await linksOf(jar)).toEqual([expect.objectContaining({ Subject: bob.sub })]);
    const [link] = (await api(host, 'GET', '/api/account/external-links', { cookie: jar })).body;
    expect((await api(host, 'DELETE', `/api/account/external-links/${link.Id}`, { cookie: jar })).status).toBe(204);
  });

  it('refuses at once to link an upstream account that is linked to someone else', async () => {
    const owner = await person();
    expect((await startLinkAndAnswer(owner.jar, bob)).headers.location).toBe('/account/link');
    expect((await api(host, 'POST', CONFIRM, { cookie: owner.jar })).status).toBe(204);
    const { jar } = await person();
    const finish = await startLinkAndAnswer(jar, bob);
    expect(finish.headers.location).toBe('/login?error=external-refused');
    expectProblem(await api(host, 'GET', PENDING, { cookie: jar }), 404, 'ExternalLink.NotFound');
    expect(await linksOf(jar)).toEqual([]);
  });
});

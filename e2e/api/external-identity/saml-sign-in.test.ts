import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAtSimpleSaml, startSimpleSamlIdp, type SimpleSamlIdp } from '../../shared/peers/simplesamlphp';
import { api, bootstrapAdmin, CookieJar, createRealm, expectProblem, realmWithAdmin, suite, type SignedIn } from '../support/harness';
import { makeUser, signedIn } from '../users/fixtures';

// SAML 2.0 sign-in, the realm as SP (spec 4.5; CONTRACT.md "External identity"), against
// SimpleSAMLphp from Debian's packages served by `php -S`: SP metadata, a signed AuthnRequest that
// the IdP itself verifies, the ACS form post, JIT, replays, another realm's requests, IdP-initiated
// SSO refused, and linking from the account page.
const PROVIDERS = '/api/admin/login-providers';

/** The signing certificate of SP metadata, as PEM. */
function certificateOf(metadata: string): string {
  const b64 = /<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata)![1].replace(/\s+/g, '');
  return new X509Certificate(Buffer.from(b64, 'base64')).toString();
}

describe('external sign-in with SAML', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  let idp: SimpleSamlIdp;
  const samlSlug = 'campus';
  let samlId: string;

  async function addSpOf(realmHost: string, realmSlug: string, providerSlug: string): Promise<string> {
    const metadata = await api(realmHost, 'GET', `/saml/${providerSlug}/sp-metadata`);
    expect(metadata.status, metadata.text).toBe(200);
    const entityId = `http://${realmSlug}.localhost:${suite().port}/saml/${providerSlug}`;
    await idp.addSp({ entityId, acsUrl: `${entityId}/acs`, certificatePem: certificateOf(metadata.text) });
    return metadata.text;
  }

  async function postToAcs(realmHost: string, answer: { acsUrl: string; SAMLResponse: string; RelayState?: string }, jar = new CookieJar()) {
    const acs = new URL(answer.acsUrl);
    const form = new URLSearchParams({ SAMLResponse: answer.SAMLResponse, ...(answer.RelayState ? { RelayState: answer.RelayState } : {}) });
    // A cross-site form post from the IdP's page.
    return api(realmHost, 'POST', acs.pathname, {
      cookie: jar,
      rawBody: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: { origin: new URL(idp.baseUrl).origin },
    });
  }

  beforeAll(async () => {
    ({ host, slug, admin } = await realmWithAdmin());
    idp = await startSimpleSamlIdp({ sps: [] });
    const res = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: { Name: 'Campus IdP', Flavor: 'Saml', Slug: samlSlug, Saml: { IdpMetadataXml: idp.metadataXml } },
    });
    expect(res.status, res.text).toBe(201);
    samlId = res.body.Id;
    await addSpOf(host, slug, samlSlug);
  }, 60_000);

  afterAll(async () => {
    await idp?.stop();
  });

  it('publishes SP metadata: entity id, the HTTP-POST ACS, a signing certificate, no Single Logout', async () => {
    const metadata = await api(host, 'GET', `/saml/${samlSlug}/sp-metadata`);
    expect(metadata.contentType).toMatch(/xml/);
    expect(metadata.text).toContain(`entityID="http://${slug}.localhost:${suite().port}/saml/${samlSlug}"`);
    expect(metadata.text).toContain('AuthnRequestsSigned="true"');
    expect(metadata.text).toMatch(/Binding="urn:oasis:names:tc:SAML:2\.0:bindings:HTTP-POST"\s+Location="[^"]+\/acs"/);
    expect(metadata.text).not.toMatch(/SingleLogoutService/);
    // The same key pair on every read (made once, kept sealed).
    expect(certificateOf((await api(host, 'GET', `/saml/${samlSlug}/sp-metadata`)).text)).toBe(certificateOf(metadata.text));
    expectProblem(await api(host, 'GET', '/saml/no-such-provider/sp-metadata'), 404, 'Request.NotFound');
  });

  it('signs in from the login route through the IdP’s form to the account, created just in time', async () => {
    const jar = new CookieJar();
    const start = await api(host, 'GET', `/saml/${samlSlug}/login?returnUrl=/account`, { cookie: jar });
    expect(start.status, start.text).toBe(302);
    const redirect = new URL(start.headers.location!);
    expect(redirect.searchParams.get('SAMLRequest')).toBeTruthy();
    expect(redirect.searchParams.get('SigAlg')).toMatch(/rsa-sha256/);
    expect(redirect.searchParams.get('Signature')).toBeTruthy();
    const answer = await loginAtSimpleSaml(redirect.href, 'alice', 'alice-Idp-pw1');
    const acs = await postToAcs(host, answer, jar);
    expect(acs.status, acs.text).toBe(302);
    expect(acs.headers.location).toBe('/account');
    const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ Email: 'alice@idp.example', Firstname: 'Alice', Lastname: 'Liddell' });

    // The same answer again: the request it answers was used.
    const replay = await postToAcs(host, answer);
    expect(replay.headers.location).toBe('/login?error=external-failed');
  });

  it('refuses IdP-initiated SSO and answers to another realm’s requests', async () => {
    const unsolicited = await loginAtSimpleSaml(
      `${idp.ssoUrl}?spentityid=${encodeURIComponent(`http://${slug}.localhost:${suite().port}/saml/${samlSlug}`)}`,
      'bob',
      'bob-Idp-pw2',
    );
    expect((await postToAcs(host, unsolicited)).headers.location).toBe('/login?error=external-failed');

    // Another realm with the same provider slug and the same IdP: its answer is not ours.
    const other = await createRealm();
    const otherJar = (await bootstrapAdmin(other.slug)).jar;
    const created = await api(other.host, 'POST', PROVIDERS, {
      cookie: otherJar,
      body: { Name: 'Campus IdP', Flavor: 'Saml', Slug: samlSlug, Saml: { IdpMetadataXml: idp.metadataXml } },
    });
    expect(created.status, created.text).toBe(201);
    await addSpOf(other.host, other.slug, samlSlug);
    const theirs = await api(other.host, 'GET', `/saml/${samlSlug}/login`);
    const answer = await loginAtSimpleSaml(theirs.headers.location!, 'bob', 'bob-Idp-pw2');
    // Posted to our ACS instead of theirs: wrong destination and audience, unknown request.
    const ourAcs = `http://${slug}.localhost:${suite().port}/saml/${samlSlug}/acs`;
    expect((await postToAcs(host, { ...answer, acsUrl: ourAcs })).headers.location).toBe('/login?error=external-failed');
    // Theirs still works.
    expect((await postToAcs(other.host, answer)).headers.location).toBe('/');
  });

  it('links the identity to the signed-in person who started from the account page, once they confirm it', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const start = await api(host, 'POST', '/api/account/external-links/start', { cookie: jar, body: { LoginProviderId: samlId } });
    expect(start.status, start.text).toBe(200);
    const answer = await loginAtSimpleSaml(start.body.Location, 'bob', 'bob-Idp-pw2');
    // The IdP's post carries no session cookie of ours (SameSite): the request's record says who
    // asked; the pending link's key lands in the browser that posted.
    const pendingKey = new CookieJar();
    const acs = await postToAcs(host, answer, pendingKey);
    expect(acs.headers.location).toBe('/account/link');
    expect((await api(host, 'GET', '/api/account/external-links', { cookie: jar })).body).toEqual([]);
    jar.update([`gatehouse_link=${pendingKey.get('gatehouse_link')}`]);
    const pending = await api(host, 'GET', '/api/account/external-links/pending', { cookie: jar });
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body).toMatchObject({ LoginProviderId: samlId, Provider: 'Campus IdP', Issuer: idp.entityId });
    expect((await api(host, 'POST', '/api/account/external-links/confirm', { cookie: jar })).status).toBe(204);
    const links = await api(host, 'GET', '/api/account/external-links', { cookie: jar });
    expect(links.body).toEqual([expect.objectContaining({ Name: 'Campus IdP', Issuer: idp.entityId })]);
  });

  it('never links from the sign-in route, even when a signed-in person starts it (issue 30 item 6)', async () => {
    const user = await makeUser(host, admin.jar);
    const jar = await signedIn(host, user);
    const start = await api(host, 'GET', `/saml/${samlSlug}/login?returnUrl=/account`, { cookie: jar });
    const answer = await loginAtSimpleSaml(start.headers.location!, "o'hara", 'ohara-Idp-pw3');
    await postToAcs(host, answer);
    expect((await api(host, 'GET', '/api/account/external-links', { cookie: jar })).body).toEqual([]);
  });

  it('refuses a malformed post with a clear problem, never a 500', async () => {
    const res = await api(host, 'POST', `/saml/${samlSlug}/acs`, { rawBody: 'SAMLResponse=%%%', contentType: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login?error=external-failed');
    expectProblem(await api(host, 'POST', `/saml/${samlSlug}/acs`, { body: { SAMLResponse: 'x' } }), 415, 'Request.UnsupportedMediaType');
  });
});

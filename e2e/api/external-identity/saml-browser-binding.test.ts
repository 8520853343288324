import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAtSimpleSaml, startSimpleSamlIdp, type SimpleSamlIdp } from '../../shared/peers/simplesamlphp';
import { startExtraServer, type ExtraServer } from '../support/extra-server';
import { api, CookieJar, realmWithAdmin } from '../support/harness';

// SAML on an https deployment (GATEHOUSE_PUBLIC_SCHEME=https, a second server on the same store):
// the IdP's answer signs in only the browser that started the sign-in, through a SameSite=None,
// Secure cookie matched against the request (login CSRF). The cookie jar here sends it as a browser
// would after the IdP's cross-site post.
describe('SAML answers are bound to the browser that asked (https)', () => {
  let idp: SimpleSamlIdp;
  let server: ExtraServer;
  let host: string;

  beforeAll(async () => {
    const realm = await realmWithAdmin();
    idp = await startSimpleSamlIdp({ sps: [] });
    server = await startExtraServer({ name: 'saml-https', storage: 'shared', env: { GATEHOUSE_PUBLIC_SCHEME: 'https', GATEHOUSE_PUBLIC_PORT: '443' } });
    host = `${realm.slug}.localhost:${server.port}`;
    const created = await api(realm.host, 'POST', '/api/admin/login-providers', {
      cookie: realm.admin.jar,
      body: { Name: 'Campus IdP', Flavor: 'Saml', Slug: 'campus', Saml: { IdpMetadataXml: idp.metadataXml } },
    });
    expect(created.status, created.text).toBe(201);
    const metadata = await api(host, 'GET', '/saml/campus/sp-metadata', { port: server.port });
    const entityId = `https://${realm.slug}.localhost/saml/campus`;
    expect(metadata.text).toContain(`entityID="${entityId}"`);
    const b64 = /<(?:ds:)?X509Certificate>([^<]+)</.exec(metadata.text)![1].replace(/\s+/g, '');
    await idp.addSp({ entityId, acsUrl: `${entityId}/acs`, certificatePem: new X509Certificate(Buffer.from(b64, 'base64')).toString() });
  }, 90_000);

  afterAll(async () => {
    await Promise.all([server?.stop(), idp?.stop()]);
  });

  async function answerFor(jar: CookieJar) {
    const start = await api(host, 'GET', '/saml/campus/login', { port: server.port, cookie: jar });
    expect(start.status, start.text).toBe(302);
    expect(start.setCookies.join('\n')).toMatch(/__Host-gatehouse_saml=[^;]+;.*SameSite=None/i);
    return loginAtSimpleSaml(start.headers.location!, 'alice', 'alice-Idp-pw1');
  }

  const post = (answer: { SAMLResponse: string }, cookie: CookieJar) =>
    api(host, 'POST', '/saml/campus/acs', {
      port: server.port,
      cookie,
      rawBody: new URLSearchParams({ SAMLResponse: answer.SAMLResponse }).toString(),
      contentType: 'application/x-www-form-urlencoded',
      headers: { origin: new URL(idp.baseUrl).origin },
    });

  it('refuses an answer posted from a browser that did not start the sign-in', async () => {
    const attacker = new CookieJar();
    const answer = await answerFor(attacker);
    const victim = new CookieJar();
    const res = await post(answer, victim);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/login?error=external-failed');
    expect(victim.size).toBe(0);
  });

  it('refuses a post without the cookie before reading it: the request it names is still pending for its browser', async () => {
    const jar = new CookieJar();
    const answer = await answerFor(jar);
    const bare = await post(answer, new CookieJar());
    expect(bare.status).toBe(302);
    expect(bare.headers.location).toBe('/login?error=external-failed');
    // Nothing was taken by the refused post (issue 30 item 1: refused before the response is read).
    const res = await post(answer, jar);
    expect(res.status, res.text).toBe(302);
    expect(res.headers.location).toBe('/');
  });

  it('accepts it in the browser that started it', async () => {
    const jar = new CookieJar();
    const answer = await answerFor(jar);
    const res = await post(answer, jar);
    expect(res.status, res.text).toBe(302);
    expect(res.headers.location).toBe('/');
    const me = await api(host, 'GET', '/api/account/me', { port: server.port, cookie: jar });
    expect(me.status, me.text).toBe(200);
    expect(me.body.Email).toBe('alice@idp.example');
  });
});

import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { followAsBrowser } from '../support/oauth';
import { webClientBody } from '../oauth/fixtures';
import { api, bootstrapAdmin, CookieJar, createRealm, realmWithAdmin, signIn, suite, type SignedIn } from '../support/harness';
import { makeUser } from '../users/fixtures';

// Gatehouse federating with Gatehouse (issue 10): realm B is a full OpenID provider, realm A signs
// people in with it through its upstream-OIDC provider. B's primary domain is a loopback address, so
// A's server reaches B's discovery, token and JWKS endpoints over the network like any upstream
// (a 127.x address inside the test server's GATEHOUSE_OUTBOUND_ALLOW, support/server-process.ts).
describe('a Gatehouse realm as the OIDC upstream of another', () => {
  let a: { host: string; slug: string; admin: SignedIn };
  let b: { host: string; slug: string; admin: SignedIn };
  let providerId: string;

  beforeAll(async () => {
    a = await realmWithAdmin();
    const domain = `127.${randomInt(1, 128)}.${randomInt(1, 250)}.${randomInt(2, 250)}`;
    const realmB = await createRealm({ Domains: [domain] });
    b = { host: realmB.host, slug: realmB.slug, admin: await bootstrapAdmin(realmB.slug) };
    const callback = `http://${a.slug}.localhost:${suite().port}/api/account/external-login/finish`;
    const client = await api(b.host, 'POST', '/api/admin/oauth/clients', {
      cookie: b.admin.jar,
      body: webClientBody({
        DisplayName: `Realm ${a.slug}`,
        RedirectUris: [callback],
        Scopes: ['openid', 'profile', 'email'],
        GrantTypes: ['authorization_code'],
      }),
    });
    expect(client.status, client.text).toBe(201);
    const created = await api(a.host, 'POST', '/api/admin/login-providers', {
      cookie: a.admin.jar,
      body: { Name: 'Partner realm', Flavor: 'Oidc', Oidc: { Authority: `http://${domain}:${suite().port}`, ClientId: client.body.ClientId } },
    });
    expect(created.status, created.text).toBe(201);
    providerId = created.body.Id;
    const secret = await api(a.host, 'POST', `/api/admin/login-providers/${providerId}/secret`, {
      cookie: a.admin.jar,
      body: { ClientSecret: client.body.ClientSecret },
    });
    expect(secret.status, secret.text).toBe(204);
  }, 60_000);

  it('signs a person of realm B into realm A, created just in time from B’s ID token', async () => {
    const person = await makeUser(b.host, b.admin.jar, { Firstname: 'Grace', Lastname: 'Hopper' });
    const inB = await signIn(b.host, person.userName, person.password);
    expect(inB.res.status, inB.res.text).toBe(200);

    const jarA = new CookieJar();
    const start = await api(a.host, 'GET', `/api/account/external-login/${providerId}/start?returnUrl=/account`, { cookie: jarA });
    expect(start.status, start.text).toBe(302);
    const authorize = new URL(start.headers.location!);
    expect(authorize.host).toBe(b.host);
    expect(authorize.pathname).toBe('/connect/authorize');
    // B's engine, in the browser signed in at B: implicit consent sends it straight back to A.
    const { location } = await followAsBrowser(b.host, authorize.pathname + authorize.search, inB.jar);
    expect(location.host).toBe(`${a.slug}.localhost:${suite().port}`);
    expect(location.pathname).toBe('/api/account/external-login/finish');

    const finish = await api(a.host, 'GET', location.pathname + location.search, { cookie: jarA });
    expect(finish.status, finish.text).toBe(302);
    expect(finish.headers.location).toBe('/account');
    const me = await api(a.host, 'GET', '/api/account/me', { cookie: jarA });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ Email: person.email, Firstname: 'Grace', Lastname: 'Hopper' });
    const links = await api(a.host, 'GET', '/api/account/external-links', { cookie: jarA });
    expect(links.body).toEqual([expect.objectContaining({ Issuer: `http://${b.host}`, Name: 'Partner realm' })]);
    // A's own administrator sees the person as a user of A, not of B.
    const users = await api(a.host, 'GET', `/api/user?search=${encodeURIComponent(person.email)}`, { cookie: a.admin.jar });
    expect(users.body.totalCount).toBe(1);
  });
});

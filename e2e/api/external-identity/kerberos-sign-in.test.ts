import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKdc, type Kdc } from '../../shared/peers/kdc';
import { api, CookieJar, realmWithAdmin, suite, type SignedIn } from '../support/harness';

// Kerberos (SPNEGO) sign-in (CONTRACT.md "External identity") against an MIT KDC from Debian's
// packages in a temporary realm: the keytab made with kadmin.local is uploaded as the provider's
// secret, a ticket comes from kinit, and curl --negotiate (GSS-API) signs in at the negotiate route.
const PROVIDERS = '/api/admin/login-providers';
const run = promisify(execFile);

describe('external sign-in with Kerberos', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  let kdc: Kdc;
  let providerId: string;
  let domain: string;

  /** curl --negotiate as `user` (or without a ticket): the status, headers and cookies of the first answer. */
  async function negotiateWithCurl(user: string | undefined, path: string) {
    const env = user ? (await kdc.kinit(user)).env : { KRB5_CONFIG: kdc.krb5ConfigPath, KRB5CCNAME: 'FILE:/nonexistent/ccache' };
    const port = suite().port;
    const { stdout } = await run(
      'curl',
      ['-s', '-o', '/dev/null', '-D', '-', '--negotiate', '-u', ':', '--resolve', `${domain}:${port}:127.0.0.1`, `http://${domain}:${port}${path}`],
      { env: { ...process.env, ...env } },
    );
    const blocks = stdout.trim().split(/\r?\n\r?\n/);
    const last = blocks[blocks.length - 1];
    const status = Number(/^HTTP\/[\d.]+ (\d+)/.exec(last)![1]);
    const headers = last.split(/\r?\n/).slice(1);
    const header = (name: string) => headers.filter((h) => h.toLowerCase().startsWith(`${name}:`)).map((h) => h.slice(name.length + 1).trim());
    return { status, location: header('location')[0], cookies: header('set-cookie'), challenge: header('www-authenticate') };
  }

  beforeAll(async () => {
    ({ host, slug, admin } = await realmWithAdmin());
    domain = `${slug}.localhost`;
    kdc = await startKdc({ serviceHosts: [domain] });
    const created = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: {
        Name: 'Windows domain',
        Flavor: 'Kerberos',
        Kerberos: { Realm: kdc.realm, ServicePrincipal: kdc.servicePrincipal(domain) },
        // Kerberos tells who, not an address: the script gives the account one.
        UserUpdateScript: `return { Email: claims.userName + '@krb.example' };`,
      },
    });
    expect(created.status, created.text).toBe(201);
    providerId = created.body.Id;
    const keytab = await api(host, 'POST', `${PROVIDERS}/${providerId}/secret`, {
      cookie: admin.jar,
      body: { Keytab: kdc.keytabFor(domain).toString('base64') },
    });
    expect(keytab.status, keytab.text).toBe(204);
  }, 90_000);

  afterAll(async () => {
    await kdc?.stop();
  });

  it('challenges a browser without a ticket: 401 WWW-Authenticate: Negotiate', async () => {
    const res = await api(host, 'GET', `/api/account/negotiate/${providerId}?returnUrl=/account`);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Negotiate');
    const curl = await negotiateWithCurl(undefined, `/api/account/negotiate/${providerId}`);
    expect(curl.status).toBe(401);
  });

  it('signs in with a ticket from kinit through curl --negotiate, then redirects to returnUrl', async () => {
    const curl = await negotiateWithCurl('alice', `/api/account/negotiate/${providerId}?returnUrl=/account`);
    expect(curl.status).toBe(302);
    expect(curl.location).toBe('/account');
    expect(curl.challenge[0]).toMatch(/^Negotiate \S+/); // mutual authentication
    const jar = new CookieJar();
    jar.update(curl.cookies);
    const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ UserName: 'alice', Email: 'alice@krb.example' });
    const links = await api(host, 'GET', '/api/account/external-links', { cookie: jar });
    expect(links.body).toEqual([expect.objectContaining({ Issuer: `krb5:${kdc.realm}`, Subject: `alice@${kdc.realm}` })]);
  });

  it('refuses a garbage token by challenging again, and an unknown provider', async () => {
    const res = await api(host, 'GET', `/api/account/negotiate/${providerId}`, { headers: { authorization: 'Negotiate YWJjZGVmZ2hpamtsbW5vcA==' } });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Negotiate');
    const unknown = await api(host, 'GET', `/api/account/negotiate/no-such-provider`);
    expect(unknown.status).toBe(302);
    expect(unknown.headers.location).toBe('/login?error=external-failed');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlapd, type SlapdPeer } from '../../shared/peers/slapd';
import { api, expectProblem, realmWithAdmin, signIn, type SignedIn } from '../support/harness';
import { realmSql } from '../support/realm-sql';
import { makeUser } from '../users/fixtures';

// LDAP sign-in through POST /api/account/login (CONTRACT.md "External identity") against Debian's
// OpenLDAP slapd, started here with its own users: bind-and-search with the service account,
// the person's own bind, JIT with the directory's attributes, filter injection, StartTLS, a
// directory that is down (503, never 500) and the same rate limits as passwords.
const PROVIDERS = '/api/admin/login-providers';

describe('external sign-in with LDAP', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  let slapd: SlapdPeer;
  let tlsSlapd: SlapdPeer;
  let providerId: string;

  beforeAll(async () => {
    ({ host, slug, admin } = await realmWithAdmin());
    [slapd, tlsSlapd] = await Promise.all([startSlapd(), startSlapd({ tls: true })]);
    const res = await api(host, 'POST', PROVIDERS, {
      cookie: admin.jar,
      body: { Name: 'Directory', Flavor: 'Ldap', Ldap: { Url: slapd.url, BindDn: slapd.adminDn, UserSearchBase: slapd.peopleDn } },
    });
    expect(res.status, res.text).toBe(201);
    providerId = res.body.Id;
    const secret = await api(host, 'POST', `${PROVIDERS}/${providerId}/secret`, { cookie: admin.jar, body: { BindPassword: slapd.adminPassword } });
    expect(secret.status, secret.text).toBe(204);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([slapd?.stop(), tlsSlapd?.stop()]);
  });

  it('signs a directory user in, created just in time with the directory’s attributes', async () => {
    const alice = slapd.users.find((u) => u.uid === 'alice')!;
    const { res, jar } = await signIn(host, 'alice', alice.password);
    expect(res.status, res.text).toBe(200);
    expect(res.body.authenticated).toBe(true);
    const me = await api(host, 'GET', '/api/account/me', { cookie: jar });
    expect(me.body).toMatchObject({ UserName: 'alice', Email: alice.mail, EmailConfirmed: true, Firstname: 'Alice', Lastname: 'Liddell' });
    const links = await api(host, 'GET', '/api/account/external-links', { cookie: jar });
    expect(links.body).toEqual([expect.objectContaining({ LoginProviderId: providerId, Name: 'Directory', Issuer: `ldap:${slapd.url.toLowerCase()}` })]);
    // The same person the second time, no local password was ever stored.
    const again = await signIn(host, 'alice', alice.password);
    expect(again.res.body.userId).toBe(res.body.userId);
    const [row] = await realmSql<{ has: number }>(slug, 'SELECT COUNT(*) AS has FROM "User" WHERE "id" = $1 AND "passwordHash" IS NOT NULL', [res.body.userId]);
    expect(Number(row.has)).toBe(0);
  });

  it('refuses a wrong password, an unknown name and an empty password with the same 401', async () => {
    expectProblem((await signIn(host, 'bob', 'wrong-password')).res, 401, 'Auth.InvalidCredentials');
    expectProblem((await signIn(host, 'nobody-here', 'whatever-pw1')).res, 401, 'Auth.InvalidCredentials');
    expectProblem((await signIn(host, 'bob', '')).res, 400, 'Validation.Failed');
  });

  it('escapes the name in the search filter (RFC 4515): no wildcard or filter injection', async () => {
    const bob = slapd.users.find((u) => u.uid === 'bob')!;
    for (const name of ['*', 'b*', '*)(uid=*', 'bob)(|(uid=*)', 'alice)(objectClass=*']) {
      expectProblem((await signIn(host, name, bob.password)).res, 401, 'Auth.InvalidCredentials');
    }
    // A uid with metacharacters signs in by its exact name.
    const odd = slapd.users.find((u) => u.uid === 'o*brien')!;
    const { res } = await signIn(host, 'o*brien', odd.password);
    expect(res.status, res.text).toBe(200);
  });

  it('keeps a local password first: the directory is asked only for names without one', async () => {
    const local = await makeUser(host, admin.jar);
    const wrong = await signIn(host, local.userName, 'not-the-password-1');
    expectProblem(wrong.res, 401, 'Auth.InvalidCredentials');
    expect((await signIn(host, local.userName, local.password)).res.status).toBe(200);
  });

  it('answers 503 with a log line, never 500, when the directory is down', async () => {
    const down = await realmWithAdmin();
    const created = await api(down.host, 'POST', PROVIDERS, {
      cookie: down.admin.jar,
      body: { Name: 'Down', Flavor: 'Ldap', Ldap: { Url: 'ldap://127.0.0.1:9', UserSearchBase: 'dc=x' } },
    });
    expect(created.status, created.text).toBe(201);
    expectProblem((await signIn(down.host, 'someone', 'some-password-1')).res, 503, 'ExternalLogin.Unavailable');
    // The administrator of the realm still signs in with a local password.
    expect((await signIn(down.host, down.admin.userName, down.admin.password)).res.status).toBe(200);
    const test = await api(down.host, 'POST', `${PROVIDERS}/${created.body.Id}/test`, { cookie: down.admin.jar });
    expect(test.status, test.text).toBe(200);
    expect(test.body.Ok).toBe(false);
    expect(test.body.Reason).toMatch(/127\.0\.0\.1:9/);
  });

  it('uses StartTLS with the directory’s CA, and refuses a directory whose certificate is not trusted', async () => {
    const realm = await realmWithAdmin();
    const body = (ca?: string) => ({
      Name: 'TLS directory',
      Flavor: 'Ldap',
      Ldap: { Url: tlsSlapd.url, BindDn: tlsSlapd.adminDn, UserSearchBase: tlsSlapd.peopleDn, StartTls: true, ...(ca ? { CaCertificate: ca } : {}) },
    });
    const created = await api(realm.host, 'POST', PROVIDERS, { cookie: realm.admin.jar, body: body() });
    await api(realm.host, 'POST', `${PROVIDERS}/${created.body.Id}/secret`, { cookie: realm.admin.jar, body: { BindPassword: tlsSlapd.adminPassword } });
    const bob = tlsSlapd.users.find((u) => u.uid === 'bob')!;
    // Self-signed and not trusted yet: the directory cannot be asked safely.
    expectProblem((await signIn(realm.host, 'bob', bob.password)).res, 503, 'ExternalLogin.Unavailable');
    const put = await api(realm.host, 'PUT', `${PROVIDERS}/${created.body.Id}`, { cookie: realm.admin.jar, body: body(tlsSlapd.caCertPem) });
    expect(put.status, put.text).toBe(200);
    const { res } = await signIn(realm.host, 'bob', bob.password);
    expect(res.status, res.text).toBe(200);
    const test = await api(realm.host, 'POST', `${PROVIDERS}/${created.body.Id}/test`, { cookie: realm.admin.jar });
    expect(test.body).toMatchObject({ Ok: true });
  });

  it('counts directory attempts against the same per-account limit as passwords', async () => {
    const realm = await realmWithAdmin();
    const created = await api(realm.host, 'POST', PROVIDERS, {
      cookie: realm.admin.jar,
      body: { Name: 'Directory', Flavor: 'Ldap', Ldap: { Url: slapd.url, BindDn: slapd.adminDn, UserSearchBase: slapd.peopleDn } },
    });
    await api(realm.host, 'POST', `${PROVIDERS}/${created.body.Id}/secret`, { cookie: realm.admin.jar, body: { BindPassword: slapd.adminPassword } });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await signIn(realm.host, 'bob', `wrong-${i}-password`)).res.status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

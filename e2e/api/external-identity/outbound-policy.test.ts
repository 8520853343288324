import { randomInt } from 'node:crypto';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, CookieJar, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';
import { realmSql } from '../support/realm-sql';

// The outbound policy for login providers (issue 30 item 4, CONTRACT.md "Outbound policy"): a
// realm administrator chooses an OIDC Authority or an LDAP URL, and the upstream names its own
// endpoints, but neither may aim the server at an address the operator has not listed in
// GATEHOUSE_OUTBOUND_ALLOW. The test server lists 127.0.0.0/9 and localhost
// (support/server-process.ts); the refused "inside" service listens on 127.200.x.y and counts the
// connections it receives, which must stay at none. What /test and sign-in answer is generic: the
// address is not allowed, or the provider could not be reached, never the socket's own error.
// No packet is sent off this machine: 10.x, 169.254.169.254 and the like are refused before connecting.

const PROVIDERS = '/api/admin/login-providers';

type Counting = { server: Server | HttpServer; port: number; connections: number };

async function listening(server: Server | HttpServer, host: string): Promise<Counting> {
  const c: Counting = { server, port: 0, connections: 0 };
  server.on('connection', () => (c.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  c.port = (server.address() as AddressInfo).port;
  return c;
}

async function stop(c: Counting | undefined): Promise<void> {
  if (!c) return;
  if ('closeAllConnections' in c.server) c.server.closeAllConnections();
  await new Promise((resolve) => c.server.close(resolve));
}

describe('the outbound policy for login providers', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;
  /** A service at an address the operator does not list: nothing may ever connect to it. */
  let inside: Counting;
  let insideHost: string;
  /** Accepts and hangs up at once ("other side closed"). */
  let hangUp: Counting;
  /** A port on 127.0.0.1 where nothing listens (ECONNREFUSED). */
  let closedPort: number;
  /** An upstream on 127.0.0.1 (listed) whose discovery document the test writes. */
  let upstream: Counting;
  let discovery: Record<string, unknown> = {};

  beforeAll(async () => {
    ({ host, slug, admin } = await realmWithAdmin());
    insideHost = `127.${randomInt(200, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;
    inside = await listening(
      createServer((s) => s.destroy()),
      insideHost,
    );
    hangUp = await listening(
      createServer((s) => s.destroy()),
      '127.0.0.1',
    );
    const gone = await listening(createServer(), '127.0.0.1');
    closedPort = gone.port;
    await stop(gone);
    upstream = await listening(
      createHttpServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify(discovery))),
      '127.0.0.1',
    );
  });

  afterAll(async () => {
    await Promise.all([stop(inside), stop(hangUp), stop(upstream)]);
  });

  const oidc = (Authority: string, Name = 'Upstream') => ({ Name, Flavor: 'Oidc', Oidc: { Authority, ClientId: 'gatehouse' } });
  const create = (body: unknown) => api(host, 'POST', PROVIDERS, { cookie: admin.jar, body });
  const testConnection = async (id: string) => {
    const res = await api(host, 'POST', `${PROVIDERS}/${id}/test`, { cookie: admin.jar });
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toMatch(/ECONN|EHOST|ENET|other side closed|socket|fetch failed/i);
    return res.body as { Ok: boolean; Reason?: string };
  };
  /** A provider saved when the operator's list was wider: written past the API, as it would be stored. */
  const narrowedLater = async (id: string, section: 'Oidc' | 'Ldap', change: Record<string, string>) => {
    const [row] = await realmSql<{ config: string }>(slug, 'SELECT "config" FROM "LoginProvider" WHERE "id" = $1', [id]);
    const config = JSON.parse(row.config);
    config[section] = { ...config[section], ...change };
    await realmSql(slug, 'UPDATE "LoginProvider" SET "config" = $1, "version" = "version" + 1 WHERE "id" = $2', [JSON.stringify(config), id]);
  };

  it('refuses at save an Authority or directory written as an address the operator does not list', async () => {
    for (const authority of [
      `https://${insideHost}:${inside.port}/any/path?x=1`,
      `http://${insideHost}:${inside.port}/`,
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1',
      'https://[::1]:8443',
      'https://[::ffff:127.200.0.1]',
      'https://2143813633',
    ]) {
      const res = await create(oidc(authority));
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors), authority).toEqual(['Oidc.Authority']);
    }
    for (const Url of [`ldap://${insideHost}:${inside.port}`, 'ldaps://169.254.169.254', 'ldap://0x0a.1.2.3', 'ldap://[fd00:ec2::254]']) {
      const res = await create({ Name: 'Directory', Flavor: 'Ldap', Ldap: { Url, UserSearchBase: 'dc=x' } });
      expectProblem(res, 400, 'Validation.Failed');
      expect(Object.keys(res.body.errors), Url).toEqual(['Ldap.Url']);
    }
    expect(inside.connections).toBe(0);
  });

  it('refuses at save an http Authority whose host the operator does not list: on create, update and manifest apply', async () => {
    const res = await create(oidc('http://idp.example.com'));
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors['Oidc.Authority'][0]).toMatch(/https/);

    const saved = await create(oidc('https://idp.example.com', 'Saved'));
    expect(saved.status, saved.text).toBe(201);
    const put = await api(host, 'PUT', `${PROVIDERS}/${saved.body.Id}`, { cookie: admin.jar, body: oidc('http://idp.example.com', 'Saved') });
    expectProblem(put, 400, 'Validation.Failed');
    expect(Object.keys(put.body.errors)).toEqual(['Oidc.Authority']);

    const exported = await api(host, 'GET', '/api/admin/realm-config/export', { cookie: admin.jar });
    expect(exported.status, exported.text).toBe(200);
    const manifest = structuredClone(exported.body);
    const index = manifest.LoginProviders.findIndex((p: { Name: string }) => p.Name === 'Saved');
    manifest.LoginProviders[index].Oidc.Authority = 'http://idp.example.com';
    const applied = await api(host, 'POST', '/api/admin/realm-config/apply', { cookie: admin.jar, body: manifest });
    expectProblem(applied, 400, 'Validation.Failed');
    expect(Object.keys(applied.body.errors)).toEqual([`/LoginProviders/${index}/Oidc/Authority`]);

    // A listed host may speak http (the test peers do), and https is fine anywhere.
    expect((await create(oidc(`http://127.0.0.1:${upstream.port}`, 'Listed'))).status).toBe(201);
    expect((await create(oidc('http://localhost:1', 'Listed by name'))).status).toBe(201);
  });

  it('answers /test with one generic reason whatever the socket said, and sign-in the same way', async () => {
    const reasons = new Set<string>();
    for (const authority of [`http://127.0.0.1:${closedPort}/any/path?x=1`, `http://127.0.0.1:${hangUp.port}/any/path?x=1`]) {
      const created = await create(oidc(authority, `Down ${authority}`));
      expect(created.status, created.text).toBe(201);
      const result = await testConnection(created.body.Id);
      expect(result.Ok).toBe(false);
      reasons.add(result.Reason!);
      const start = await api(host, 'GET', `/api/account/external-login/${created.body.Id}/start`, { cookie: new CookieJar() });
      expect(start.status).toBe(302);
      expect(start.headers.location).toBe('/login?error=external-unavailable');
    }
    expect([...reasons]).toEqual(['discovery failed: the provider could not be reached']);
    expect(hangUp.connections).toBeGreaterThan(0);
  });

  it('refuses an address the operator no longer lists at /test and sign-in, without connecting', async () => {
    const created = await create(oidc('https://idp.example.com', 'Narrowed'));
    expect(created.status, created.text).toBe(201);
    await narrowedLater(created.body.Id, 'Oidc', { Authority: `https://${insideHost}:${inside.port}/any/path?x=1` });
    expect(await testConnection(created.body.Id)).toEqual({ Ok: false, Reason: 'discovery failed: the address is not allowed' });
    const start = await api(host, 'GET', `/api/account/external-login/${created.body.Id}/start`, { cookie: new CookieJar() });
    expect(start.status).toBe(302);
    expect(start.headers.location).toBe('/login?error=external-failed');
    expect(inside.connections).toBe(0);
  });

  it('refuses a discovery document whose token endpoint or JWKS is at an address the operator does not list', async () => {
    const issuer = `http://127.0.0.1:${upstream.port}`;
    const created = await create(oidc(issuer, 'Discovered'));
    expect(created.status, created.text).toBe(201);
    const base = { issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` };
    const cases: [string, string][] = [
      ['token_endpoint', 'https://169.254.169.254/token'],
      ['jwks_uri', `https://${insideHost}:${inside.port}/jwks`],
      ['userinfo_endpoint', 'https://10.1.2.3/userinfo'],
    ];
    for (const [name, value] of cases) {
      discovery = { ...base, [name]: value };
      // Each case is a new version of the provider, so its discovery is not served from the cache.
      await narrowedLater(created.body.Id, 'Oidc', { Scopes: `openid ${name}` });
      expect(await testConnection(created.body.Id), value).toEqual({
        Ok: false,
        Reason: `discovery failed: the upstream's ${name} is at an address that is not allowed`,
      });
    }
    discovery = base;
    await narrowedLater(created.body.Id, 'Oidc', { Scopes: 'openid' });
    expect(await testConnection(created.body.Id)).toEqual({ Ok: true });
    expect(inside.connections).toBe(0);
  });

  it('refuses a directory the operator does not list, and tells an unreachable one generically', async () => {
    const created = await create({ Name: 'Directory', Flavor: 'Ldap', Ldap: { Url: `ldap://127.0.0.1:${closedPort}`, UserSearchBase: 'dc=x' } });
    expect(created.status, created.text).toBe(201);
    const id = created.body.Id;
    expect(await testConnection(id)).toEqual({ Ok: false, Reason: `The directory at ldap://127.0.0.1:${closedPort} could not be reached.` });
    await narrowedLater(id, 'Ldap', { Url: `ldap://127.0.0.1:${hangUp.port}` });
    expect(await testConnection(id)).toEqual({ Ok: false, Reason: `The directory at ldap://127.0.0.1:${hangUp.port} could not be reached.` });
    for (const Url of [`ldap://${insideHost}:${inside.port}`, `ldaps://${insideHost}:${inside.port}`, 'ldap://169.254.169.254']) {
      await narrowedLater(id, 'Ldap', { Url });
      expect(await testConnection(id), Url).toEqual({ Ok: false, Reason: `The directory at ${Url} is at an address that is not allowed.` });
    }
    expect(inside.connections).toBe(0);
  });
});

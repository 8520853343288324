import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { adminCookie, api, CP_HOST, expectNoLeak, expectProblem, hostHeader, suite } from '../support/harness';

// CONTRACT.md "Wire rules": the realm is the Host header's host name (port removed, lower-cased)
// matched against the Domains of active realms; unknown hosts answer 404 on every path but /health.
const UNKNOWN = 'nobody-owns-this-host.localhost';

const PATHS: Array<[string, string]> = [
  ['GET', '/'],
  ['GET', '/login'],
  ['GET', '/bootstrap?token=abc'],
  ['GET', '/api/app-info'],
  ['GET', '/api/account/me'],
  ['POST', '/api/account/login'],
  ['POST', '/api/account/bootstrap-admin'],
  ['GET', '/api/admin/realms'],
  ['GET', '/api/admin/auth-log'],
  ['GET', '/api/user'],
  ['GET', '/swagger/v1/swagger.json'],
  ['GET', '/.well-known/openid-configuration'],
  ['POST', '/connect/token'],
  ['GET', '/signalr/ui/negotiate'],
  ['GET', '/favicon.ico'],
  ['GET', '/_next/static/chunks/main.js'],
  ['GET', '/does/not/exist'],
];

describe('unknown Host', () => {
  it.each(PATHS)('%s %s answers a bare 404 problem', async (method, path) => {
    const res = await api(hostHeader(UNKNOWN), method, path, method === 'POST' ? { body: { UserName: 'x', Password: 'y' } } : {});
    expectProblem(res, 404, null);
  });

  it('answers 404 even with a valid control-plane session cookie', async () => {
    const res = await api(hostHeader(UNKNOWN), 'GET', '/api/admin/realms', { cookie: adminCookie() });
    expectProblem(res, 404, null);
  });

  it('does not treat a sub-domain of a realm domain as the realm', async () => {
    const res = await api(hostHeader(`x.${CP_HOST}`), 'GET', '/api/app-info');
    expectProblem(res, 404, null);
  });

  it('answers /health/ready normally', async () => {
    const res = await api(hostHeader(UNKNOWN), 'GET', '/health/ready');
    expect(res.status).toBe(200);
  });
});

describe('known Host', () => {
  it.each([CP_HOST, `${CP_HOST}:1`, 'LOCALHOST', `LocalHost:${65535}`, '127.0.0.1', `127.0.0.1:8080`])(
    'Host %s selects the control plane (port removed, case ignored)',
    async (host) => {
      const res = await api(host, 'GET', '/api/app-info');
      expect(res.status).toBe(200);
      expect(res.body.Realm).toBe('control');
      expect(res.body.IsControlPlane).toBe(true);
    },
  );
});

describe('malformed Host', () => {
  it.each(['exa mple.com', 'bad_host!', 'a..b', '-leading.example', 'localhost:abc', 'localhost:1:2', '[::1', 'x'.repeat(300), 'host/path', 'user@localhost'])(
    'Host %j answers 4xx without realm data',
    async (host) => {
      const res = await api(host, 'GET', '/api/app-info');
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.text).not.toContain('"Realm"');
      expectNoLeak(res);
    },
  );

  it('a request without any Host header answers 4xx', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: suite().port, path: '/api/app-info', method: 'GET', setHost: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });
});

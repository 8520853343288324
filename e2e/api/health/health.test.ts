import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExtraServer, type ExtraServer } from '../support/extra-server';
import { api, CP_HOST, eventually, expectNoLeak, suite } from '../support/harness';
import { pgAdminUrl, withPg } from '../support/storage';

const engine = () => suite().storage.engine;

// CONTRACT.md "Running it": /health and /health/ready answer whatever the Host.
describe('GET /health', () => {
  it.each([CP_HOST, '127.0.0.1', 'nobody-owns-this.example', 'no-such-realm.localhost'])('answers 200 {"status":"ok"} for Host %s', async (host) => {
    const res = await api(host, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers 200 even for a Host header that is not a host name', async () => {
    const res = await api('not a host!', 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('GET /health/ready', () => {
  it.each([CP_HOST, 'unknown-host.example'])('answers 200 while the storage answers (Host %s)', async (host) => {
    const res = await api(host, 'GET', '/health/ready');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expectNoLeak(res);
  });
});

// A storage outage is only simulated on PostgreSQL: the server's global database is closed to new
// connections and its sessions are terminated (a SQLite file cannot be taken away from an open
// handle). Done on a server with a store of its own, so the other tests are not disturbed.
if (engine() === 'postgres') {
  describe('GET /health/ready while the storage is down (PostgreSQL)', () => {
    let server: ExtraServer;

    beforeAll(async () => {
      server = await startExtraServer({ name: 'readiness', storage: 'fresh' });
    });
    afterAll(async () => {
      await setConnections(server?.storage.databaseName, true).catch(() => undefined);
      await server?.stop();
    });

    async function setConnections(database: string | undefined, allow: boolean): Promise<void> {
      if (!database) return;
      await withPg(pgAdminUrl(), async (c) => {
        await c.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS ${allow}`);
        if (!allow) await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
      });
    }

    it('answers 503 while the global store is unreachable, /health stays 200, and recovers', async () => {
      const port = server.port;
      expect((await api('localhost', 'GET', '/health/ready', { port })).status).toBe(200);

      await setConnections(server.storage.databaseName, false);
      const down = await eventually(async () => {
        const res = await api('localhost', 'GET', '/health/ready', { port, timeoutMs: 15_000 });
        expect(res.status).toBe(503);
        return res;
      }, 20_000);
      expect(down.contentType).toMatch(/json/);
      expectNoLeak(down);
      const live = await api('localhost', 'GET', '/health', { port });
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'ok' });

      await setConnections(server.storage.databaseName, true);
      await eventually(async () => {
        expect((await api('localhost', 'GET', '/health/ready', { port })).status).toBe(200);
      }, 20_000);
      expect((await api('localhost', 'GET', '/api/app-info', { port })).status).toBe(200);
    });
  });
}

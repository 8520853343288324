import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../shared/peers/postgres-cluster';
import { api, eventually } from '../support/harness';
import { startInstance, stopInstances } from '../support/instances';
import { randomSuffix, type ServerHandle } from '../support/server-process';

// PostgreSQL restarted under load (docs/deployment.md "When PostgreSQL is down"): an instance on a
// private cluster the test stops and starts again, while workers keep signing in. While it is down
// /health/ready answers 503 and every request that needs the database answers 503 (problem+json on
// the API, the OAuth error `temporarily_unavailable` on the engine) with Retry-After, never 500; the
// outage is logged a few times, not per request; and when the cluster is back the same instance
// serves again, without a restart.

let cluster: PostgresCluster;
let server: ServerHandle;
let dataDir: string;
const HOST = 'localhost';

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const database = `gh_fault_${randomSuffix(4)}`;
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
  dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-pg-fault-'));
  server = await startInstance('pg-restart', {
    storage: { engine: 'postgres', dataDir, databaseUrl: cluster.urlOf(database) },
    redisUrl: '',
    // The login ceilings would answer 429 to the workers long before the restart is over.
    env: { GATEHOUSE_RATE_LIMIT_SCALE: '0' },
  });
}, 300_000);

afterAll(async () => {
  await stopInstances();
  await cluster?.remove();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const login = () => api(HOST, 'POST', '/api/account/login', { port: server.port, body: { UserName: 'nobody-here', Password: 'not-the-password-1' } });
const ready = async () => (await api(HOST, 'GET', '/health/ready', { port: server.port })).status;

describe('an instance whose PostgreSQL restarts under load', () => {
  it('answers 503 while it is down and recovers by itself when it is back', async () => {
    expect((await login()).status).toBe(401);
    expect(await ready()).toBe(200);

    // Four workers signing in until told to stop, every status kept.
    const statuses: number[] = [];
    let running = true;
    const workers = Array.from({ length: 4 }, async () => {
      while (running) statuses.push((await login().catch(() => ({ status: 0 }))).status);
    });

    await new Promise((r) => setTimeout(r, 500));
    await cluster.stop();
    const down = await login();
    expect(down.status, down.text).toBe(503);
    expect(down.headers['content-type']).toContain('application/problem+json');
    expect(down.headers['retry-after']).toBe('5');
    expect(down.body).toMatchObject({ status: 503, code: 'Server.Unavailable' });
    expect(await ready()).toBe(503);
    const token = await api(HOST, 'POST', '/connect/token', {
      port: server.port,
      rawBody: 'grant_type=client_credentials&client_id=no-such-client&client_secret=x',
      contentType: 'application/x-www-form-urlencoded',
    });
    // 503 either way: from the engine (its OAuth error) when the realm was still cached, else from the realm's resolution.
    expect(token.status, token.text).toBe(503);
    expect(token.headers['retry-after']).toBe('5');
    expect([token.body.error, token.body.code]).toContain(token.body.error ? 'temporarily_unavailable' : 'Server.Unavailable');
    await new Promise((r) => setTimeout(r, 2_000));

    await cluster.start();
    await eventually(async () => expect(await ready()).toBe(200), 30_000);
    await eventually(async () => expect((await login()).status).toBe(401), 30_000);
    running = false;
    await Promise.all(workers);

    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 401 && s !== 503)).toEqual([]);
    const outageLines = readFileSync(server.logFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('database unavailable'));
    expect(outageLines.length).toBeGreaterThan(0);
    expect(outageLines.length).toBeLessThanOrEqual(3);
  }, 180_000);
});

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInstance, stopInstances } from '../support/instances';
import { freePort, type ServerHandle } from '../support/server-process';
import { api, eventually, hostHeader, realmWithAdmin, type CreatedRealm, type SignedIn } from '../support/harness';
import { makeUser } from '../users/fixtures';

// Redis down (docs/deployment.md "When Redis is down"): an instance whose Redis goes away keeps
// serving alone. Rate limits still hold, counted in its own memory (never "allow all"), the outage
// is logged once per connection rather than at every reconnection attempt, and when Redis returns
// the counters are shared again. The test runs a Redis of its own (Debian's redis-server) and kills
// it; one Gatehouse instance uses it.

const REDIS_SERVER = '/usr/bin/redis-server';
let redis: ChildProcess | null = null;
let redisPort: number;
let server: ServerHandle;
let realm: CreatedRealm & { admin: SignedIn };

async function startRedis(): Promise<void> {
  redis = spawn(REDIS_SERVER, ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await eventually(
    async () =>
      expect(
        spawnSync('redis-cli', ['-p', String(redisPort), 'ping'])
          .stdout?.toString()
          .trim(),
      ).toBe('PONG'),
    10_000,
  );
}

function killRedis(): void {
  redis?.kill('SIGKILL');
  redis = null;
}

const logLines = (pattern: RegExp) =>
  readFileSync(server.logFile, 'utf8')
    .split('\n')
    .filter((l) => pattern.test(l));

beforeAll(async () => {
  redisPort = await freePort();
  await startRedis();
  // Rate limits on, at their real ceilings, whatever the suite's own server runs with.
  server = await startInstance('redis-down', { redisUrl: `redis://127.0.0.1:${redisPort}`, env: { GATEHOUSE_RATE_LIMIT_SCALE: '1' } });
  realm = await realmWithAdmin();
}, 300_000);

afterAll(async () => {
  await stopInstances();
  killRedis();
});

describe('an instance whose Redis goes down', () => {
  it('keeps its rate limits in its own memory, logs the outage once, and shares counters again when Redis returns', async () => {
    const host = hostHeader(realm.domain, server.port);
    const login = (userName: string) =>
      api(host, 'POST', '/api/account/login', { port: server.port, body: { UserName: userName, Password: 'not-the-password-1' } });

    const before = await makeUser(realm.host, realm.admin.jar);
    expect((await login(before.userName)).status).toBe(401);
    expect(spawnSync('redis-cli', ['-p', String(redisPort), '--scan', '--pattern', 'gh-rl:login:*']).stdout.toString()).toContain(':login:');

    killRedis();
    const user = await makeUser(realm.host, realm.admin.jar);
    // The login policy allows 10 failures per name in 5 minutes (docs/rate-limits.md).
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await login(user.userName)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // Other routes are unaffected: the instance serves.
    expect((await api(host, 'GET', '/api/app-info', { port: server.port })).status).toBe(200);

    // Several reconnection attempts later, one line per connection, not one per attempt.
    await new Promise((r) => setTimeout(r, 3_000));
    const outages = logLines(/redis unavailable/);
    expect(outages.length).toBeGreaterThan(0);
    expect(outages.length).toBeLessThanOrEqual(3); // commands, cache relay, hub fan-out

    await startRedis();
    await eventually(async () => expect(logLines(/redis is back/).length).toBeGreaterThanOrEqual(outages.length), 30_000);
    const after = await makeUser(realm.host, realm.admin.jar);
    expect((await login(after.userName)).status).toBe(401);
    // Counted in Redis again (a fresh Redis: only keys written since it returned).
    expect(spawnSync('redis-cli', ['-p', String(redisPort), '--scan', '--pattern', 'gh-rl:login:*']).stdout.toString()).toContain(':login:');
  }, 180_000);

  it('starts and serves while its Redis is down', async () => {
    const deadRedis = `redis://127.0.0.1:${await freePort()}`; // nothing listens there
    const alone = await startInstance('redis-absent', { redisUrl: deadRedis, env: { GATEHOUSE_RATE_LIMIT_SCALE: '1' } });
    const host = hostHeader(realm.domain, alone.port);
    expect((await api(host, 'GET', '/api/app-info', { port: alone.port })).status).toBe(200);
    const user = await makeUser(realm.host, realm.admin.jar);
    const signIn = await api(host, 'POST', '/api/account/login', { port: alone.port, body: { UserName: user.userName, Password: user.password } });
    expect(signIn.status, signIn.text).toBe(200);
  }, 120_000);
});

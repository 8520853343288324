import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { controlPlaneAdmin, login, realmAdminSession } from './admin';
import { expectStatus, mapLimit } from './http';
import { ROOT, startServer, type RunningServer } from './launch-server';
import type { BenchOptions } from './options';
import type { Report } from './report';
import { ConsolePool, measureDeliveries, type DeliveryMeasurement } from './scenario-hub';
import { progress } from './table';

// Issue 13: the real-time hub. One realm on a SQLite server with rate limits off; its administrator
// signs in once per 20 connections (a session holds at most 20, docs/realtime.md). Then:
// 1. N idle WebSocket connections held, and the server's RSS before and after;
// 2. with the consoles cut to 1,000, users created over the API and every console's `changed`
//    deliveries counted and timed;
// 3. the same across two instances sharing the data directory and Redis: changes made on A,
//    consoles on B, so every delivery went through Redis pub/sub.

const SLUG = 'bench-hub';
const HOST = `${SLUG}.bench.test`;
const PER_SESSION = 20;
const OPEN_CONCURRENCY = 32;
const CHANGE_CONCURRENCY = 4;

export type HubHeld = {
  connections: number;
  sessions: number;
  openSeconds: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  /** Connections the server ended during the hold. */
  lost: number;
  fdLimit: string;
  source: boolean;
  /** Failed attempts to open a connection, tried again, by reason. */
  openFailures: Record<string, number>;
};

export type HubResult = { held?: HubHeld; deliveries: DeliveryMeasurement[] };

/** The soft "Max open files" of a process (from /proc). */
function openFilesLimit(pid: number | 'self'): number {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? NaN);
}

/** The realm's administrator signed in `count` times (the invite's session first). */
async function adminSessions(server: RunningServer, count: number): Promise<string[]> {
  const control = await controlPlaneAdmin(server.env, server.port, 'bench-admin');
  await expectStatus(201, {
    port: server.port,
    method: 'POST',
    path: '/api/admin/realms',
    cookie: control,
    body: { Slug: SLUG, DisplayName: 'Bench hub', Domains: [HOST] },
  });
  const first = await realmAdminSession(server.port, control, SLUG, HOST);
  progress(`hub: signing the realm's administrator in ${count} times (${PER_SESSION} connections per session)`);
  const more = await mapLimit(
    Array.from({ length: count - 1 }, (_, i) => i),
    4,
    () => login(server.port, HOST, 'admin'),
  );
  return [first, ...more];
}

export async function hubPhase(tmp: string, o: BenchOptions, report: Report, track: (s: RunningServer) => void): Promise<void> {
  const n = o.hubConnections;
  const consoles = Math.min(o.hubConsoles, n);
  // Each connection is a socket in both this process and the server (same limit: the server is our child).
  const fdLimit = openFilesLimit('self');
  if (fdLimit < n + 1_000)
    throw new Error(`hub: ${n} connections need more open files than the limit ${fdLimit}: raise it (ulimit -n ${n + 2_000}) before npm run bench`);
  const dataDir = join(tmp, 'hub');
  mkdirSync(dataDir, { recursive: true });
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  // From source, the first server's Next build folder serves its restart with Redis (routes compiled once).
  const sharedDist = o.source ? `.next-bench-hub-${randomBytes(3).toString('hex')}` : undefined;
  const env: Record<string, string> = { GATEHOUSE_RATE_LIMIT_SCALE: '0', ...(sharedDist ? { GATEHOUSE_NEXT_DIST_DIR: sharedDist } : {}) };
  const result: HubResult = { deliveries: [] };
  report.hub = result;
  try {
    progress('hub: starting the server (rate limits off)');
    const server = await startServer({ dataDir }, undefined, env);
    track(server);
    const cookies = await adminSessions(server, Math.ceil(n / PER_SESSION));
    const apiCookie = cookies[0];
    const pool = new ConsolePool(server.port, HOST);
    try {
      // One connection opened and closed first, so the hub's code is loaded before RSS is read.
      await pool.open(apiCookie);
      await pool.closeDownTo(0);
      await sleep(2_000);
      const before = server.memory().rssMiB;
      progress(`hub: opening ${n} idle WebSocket connections (${cookies.length} sessions)`);
      const openSeconds = await pool.openMany(n, cookies, PER_SESSION, OPEN_CONCURRENCY);
      progress('hub: holding them 20 s (client and server pings)');
      await sleep(20_000);
      result.held = {
        connections: n,
        sessions: cookies.length,
        openSeconds,
        rssBeforeMiB: before,
        rssAfterMiB: server.memory().rssMiB,
        lost: pool.lost,
        fdLimit: `${fdLimit} (bench), ${openFilesLimit(server.pid)} (server)`,
        source: o.source,
        openFailures: pool.openFailures,
      };

      progress(`hub: ${consoles} consoles hear ${o.hubChanges} users created over the API, one instance`);
      await pool.closeDownTo(consoles);
      await sleep(3_000);
      const api = { port: server.port, host: HOST, cookie: apiCookie };
      // A first change warms the route (compiled on first use from source) and each console's grants.
      await measureDeliveries('warm-up', pool, api, 1, 1);
      result.deliveries.push(await measureDeliveries('one instance, no Redis', pool, api, o.hubChanges, CHANGE_CONCURRENCY));
    } finally {
      await pool.closeAll();
      await server.stop();
    }

    progress(`hub: two instances sharing the data directory and Redis (${redisUrl}): changes on A, ${consoles} consoles on B`);
    const a = await startServer({ dataDir }, undefined, { ...env, REDIS_URL: redisUrl });
    track(a);
    // B serves only the hub: from source it gets a Next build folder of its own, removed when it stops.
    const b = await startServer({ dataDir }, undefined, { GATEHOUSE_RATE_LIMIT_SCALE: '0', REDIS_URL: redisUrl });
    track(b);
    const poolB = new ConsolePool(b.port, HOST);
    try {
      await poolB.openMany(consoles, cookies, PER_SESSION, OPEN_CONCURRENCY);
      const api = { port: a.port, host: HOST, cookie: apiCookie };
      await measureDeliveries('warm-up', poolB, api, 1, 1);
      result.deliveries.push(await measureDeliveries('A to B through Redis', poolB, api, o.hubChanges, CHANGE_CONCURRENCY));
    } finally {
      await poolB.closeAll();
      await Promise.all([a.stop(), b.stop()]);
    }
  } finally {
    if (sharedDist) rmSync(join(ROOT, sharedDist), { recursive: true, force: true });
  }
}

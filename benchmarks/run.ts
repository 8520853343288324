import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { controlPlaneAdmin } from './admin';
import { stopAgent } from './http';
import { isBuilt, ROOT, runFromSource, snapshotBuild, startServer, type RunningServer } from './launch-server';
import { BENCH_PARTS, HELP, parseOptions, type BenchOptions, type BenchPart } from './options';
import { authPhase, AUTH_SCENARIOS } from './phase-auth';
import { EXTERNAL_PARTS, externalPhase } from './phase-external';
import { hubPhase } from './phase-hub';
import { oauthPhase } from './phase-oauth';
import { realmPhase } from './phase-realms';
import { samlPhase } from './phase-saml';
import { connectionCount, createDatabase, dropGatehouseDatabases, realmDatabasesOf, startPostgres, type PgServer } from './postgres';
import { emptyReport, renderReport, type Report } from './report';
import { argon2Rates } from './scenario-argon2';
import { measureExport } from './scenario-export';
import { measureManifest, MANIFEST_SIZES } from './scenario-manifest';
import { loginRow, makeLoginUsers } from './scenario-login';
import type { Measurement } from './load';
import { throughputRows } from './scenario-throughput';
import { median, progress } from './table';

// `npm run bench`: the production build on SQLite, then on PostgreSQL, measured with autocannon
// from this process. Prints one markdown report on stdout; progress goes to stderr.

const LOGIN_USERS = 4;
const LOGIN_ROUNDS = 3;
const LOGIN_WARMUP_SECONDS = 5;
const IN_PROCESS_PARTS: ReadonlySet<BenchPart> = new Set(['argon2', 'export', 'manifest']);

async function sqlitePhase(tmp: string, o: BenchOptions, report: Report, track: (s: RunningServer) => void): Promise<void> {
  const want = (part: BenchPart) => o.only.has(part);
  let t: Awaited<ReturnType<typeof throughputRows>> | undefined;
  if (want('throughput') || want('login') || want('realms')) {
    const dataDir = join(tmp, 'sqlite');
    mkdirSync(dataDir, { recursive: true });
    const server = await startServer({ dataDir });
    track(server);
    const load = { connections: o.connections, duration: o.duration, cpuMs: server.cpuMs };
    const cookie = await controlPlaneAdmin(server.env, server.port, 'bench-admin');
    if (want('throughput')) {
      progress('SQLite: throughput rows');
      t = await throughputRows(server.port, cookie, load);
      report.rows.push(t.health, t.nextRoute, t.appInfo, t.me);
    }
    if (want('login')) {
      progress(`SQLite: password login (${LOGIN_USERS} accounts, rotating source addresses)`);
      const users = await makeLoginUsers(server.env, server.port, LOGIN_USERS, cookie);
      report.rows.push(await loginRow(server.port, users, load));
    }
    if (want('realms')) await realmPhase('SQLite', server, cookie, o, o.realms, report);
    await server.stop();
  }
  if (want('login')) {
    // The same row on a server with the rate limits off: the login alone, what issue 14's ratio to
    // the raw argon2id rate is about (the row above shows what the limits cost).
    const dataDir = join(tmp, 'sqlite-login');
    mkdirSync(dataDir, { recursive: true });
    const server = await startServer({ dataDir }, undefined, { GATEHOUSE_RATE_LIMIT_SCALE: '0' });
    track(server);
    const users = await makeLoginUsers(server.env, server.port, LOGIN_USERS, await controlPlaneAdmin(server.env, server.port, 'bench-admin'));
    const load = { connections: o.connections, duration: o.duration, cpuMs: server.cpuMs };
    if (want('argon2')) {
      // The login and the raw argon2id rate take turns, LOGIN_ROUNDS times: this shared machine's
      // speed drifts by a third over minutes (neighbours, memory bandwidth), and measured minutes
      // apart the ratio moved with it (0.69-0.97x on one build). Each round's ratio is taken
      // within the round; the median of the rounds is the figure.
      const seconds = Math.max(1, Math.min(o.duration, 6) / 2);
      const ratios: number[] = [];
      for (let round = 1; round <= LOGIN_ROUNDS; round++) {
        progress(`SQLite: password login (${LOGIN_USERS} accounts, rate limits off), then argon2id in-process: round ${round} of ${LOGIN_ROUNDS}`);
        // The first round warms the server up longer: at about 100 logins a second, the usual
        // second of warm-up ends before V8 has optimised the login's path (round 1 ran 10-15 %
        // below the next two when it had only that second).
        const login = await loginRow(server.port, users, { ...load, warmup: round === 1 ? LOGIN_WARMUP_SECONDS : 1 }, 'off', round);
        report.rows.push(login);
        const raws = await argon2Rates(seconds, round);
        report.argon2.push(...raws);
        ratios.push(login.rps / Math.max(...raws.map((a) => a.perSecond)));
      }
      const sorted = [...ratios].sort((a, b) => a - b);
      report.ratios.push({
        name: `login (rate limits off) / raw argon2 verify, median of ${LOGIN_ROUNDS} interleaved rounds (${sorted.map((r) => r.toFixed(2)).join(', ')})`,
        value: median(ratios),
        target: 0.8,
      });
    } else {
      progress(`SQLite: password login (${LOGIN_USERS} accounts, rate limits off)`);
      report.rows.push(await loginRow(server.port, users, load, 'off'));
    }
    await server.stop();
  } else if (want('argon2')) {
    progress('argon2id verify rate, in-process');
    const seconds = Math.min(o.duration, 6);
    report.argon2.push(...(await argon2Rates(seconds)));
  }
  if (want('export')) {
    const largest = Math.max(...o.exportEntries);
    for (const entries of o.exportEntries) {
      progress(`data export: a person with ${entries} security-log entries, in-process${entries === largest ? ', also under a heap cap' : ''}`);
      report.exports.push(...(await measureExport(tmp, entries, entries === largest)));
    }
  }
  if (want('manifest')) {
    const s = MANIFEST_SIZES;
    progress(`realm manifest: ${s.apps} Apps, ${s.roles} roles, ${s.groups} groups, ${s.clients} clients, in-process`);
    report.manifests.push(await measureManifest());
  }
  // Issue 14 item 3, by server CPU per request: `me` (a session and its person) at least 0.6x the
  // trivial Next route's rate per CPU-second, app-info at least 0.8x. The JSON API no longer runs
  // through Next (lib/http/direct-routes.ts), so app-info is now far below that floor, and `me /
  // app-info` (no target) shows what the session and the permission walk cost above the wrapper.
  if (t) {
    const perCpu = (m: Measurement) => 1 / m.cpuMsPerRequest;
    report.ratios.push({ name: 'me / trivial Next route (per CPU-second)', value: perCpu(t.me) / perCpu(t.nextRoute), target: 0.6 });
    report.ratios.push({ name: 'app-info / trivial Next route (per CPU-second)', value: perCpu(t.appInfo) / perCpu(t.nextRoute), target: 0.8 });
    report.ratios.push({ name: 'me / app-info (req/s)', value: t.me.rps / t.appInfo.rps });
  }

  if (AUTH_SCENARIOS.some(want)) await authPhase(tmp, o, report, track);
  if (want('oauth')) await oauthPhase(tmp, o, report, track);
  if (EXTERNAL_PARTS.some(want)) await externalPhase(tmp, o, report, track);
  if (want('hub')) await hubPhase(tmp, o, report, track);
  if (want('saml-acs')) await samlPhase(tmp, o, report, track);
}

async function postgresPhase(tmp: string, o: BenchOptions, report: Report, track: (s: RunningServer) => void, trackPg: (p: PgServer) => void): Promise<void> {
  const pgServer = await startPostgres(tmp, o.databaseUrl);
  trackPg(pgServer);
  report.header.push(`PostgreSQL: ${pgServer.label}`);
  const globalName = `gh_bench_${randomBytes(4).toString('hex')}`;
  const globalUrl = await createDatabase(pgServer, globalName);
  const dataDir = join(tmp, 'postgres-data');
  mkdirSync(dataDir, { recursive: true });
  try {
    const server = await startServer({ dataDir, databaseUrl: globalUrl });
    track(server);
    const cookie = await controlPlaneAdmin(server.env, server.port, 'bench-admin');
    const checkpoint = async (when: string) => {
      const names = [globalName, ...(await realmDatabasesOf(globalUrl))];
      report.connections.push({ when, ...(await connectionCount(pgServer, names)) });
    };
    await realmPhase('PostgreSQL', server, cookie, o, o.pgRealms, report, checkpoint);
    progress('PostgreSQL: waiting 12 s (realm pool idle timeout is 10 s)');
    await sleep(12_000);
    await checkpoint('after 12 s idle');
    await server.stop();
  } finally {
    if (o.databaseUrl) {
      progress('PostgreSQL: dropping the bench databases');
      const t = performance.now();
      const n = await dropGatehouseDatabases(pgServer, globalName, globalUrl);
      report.notes.push(`Dropped ${n} PostgreSQL databases in ${((performance.now() - t) / 1000).toFixed(1)} s.`);
    }
  }
}

async function main(): Promise<number> {
  const o = parseOptions(process.argv.slice(2));
  if (o === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  // The in-process parts need no server, so no build.
  const needsServer = [...o.only].some((p) => !IN_PROCESS_PARTS.has(p));
  if (o.source) runFromSource();
  else if (o.build || (needsServer && !isBuilt())) {
    progress('building (npm run build)');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: ['ignore', process.stderr, process.stderr] });
  }
  const report = emptyReport();
  const cpu = cpus();
  report.header.push(
    `${new Date().toISOString()}, Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, load average at start ${loadavg()[0].toFixed(2)}`,
    `autocannon ${o.connections} connections, ${o.duration} s per row after a 1 s warm-up, client on the same machine; ${o.source ? 'servers from source (server.ts through tsx, NODE_ENV=development)' : 'production build (NODE_ENV=production node dist/server.js)'}`,
    `fleet sizes: SQLite ${o.only.has('realms') ? o.realms : 'skipped'}, PostgreSQL ${o.postgres ? o.pgRealms : 'skipped'} realms; ${o.creates} timed sequential creates`,
  );
  if (o.only.size < BENCH_PARTS.length) report.header.push(`parts run (--only): ${[...o.only].join(', ')}`);
  const tmp = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'));
  const servers: RunningServer[] = [];
  const pgServers: PgServer[] = [];
  let code = 0;
  const started = performance.now();
  try {
    if (needsServer && !o.source) snapshotBuild(join(tmp, 'app'));
    await sqlitePhase(tmp, o, report, (s) => servers.push(s));
    if (o.postgres)
      await postgresPhase(
        tmp,
        o,
        report,
        (s) => servers.push(s),
        (p) => pgServers.push(p),
      );
  } catch (e) {
    code = 1;
    report.notes.push(`FAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    for (const s of servers) {
      if (existsSync(s.logFile))
        report.notes.push(`server log ${s.logFile} (tail):\n\n    ${readFileSync(s.logFile, 'utf8').split('\n').slice(-30).join('\n    ')}`);
    }
  } finally {
    for (const s of servers) await s.stop().catch(() => undefined);
    for (const p of pgServers) await p.stop().catch(() => undefined);
    stopAgent();
    report.notes.push(`Whole run: ${((performance.now() - started) / 1000).toFixed(0)} s (before removing the temp directory).`);
    process.stdout.write(renderReport(report) + '\n');
    progress(`removing ${tmp}`);
    rmSync(tmp, { recursive: true, force: true });
  }
  return code;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { runCli } from './cli';
import { cookieFrom, sendRequest } from './http';
import { chooseMode, freePort, randomSuffix, serverEnv, startServer, stopPid, type ServerHandle } from './server-process';
import { createStorage, destroyStorage, engineFromEnv, sweepAbandonedPgStorage } from './storage';
import { startMailCapture, type MailCapture } from './mail-capture';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';
import type { AdminAccount, SuiteInfo } from './types';

// Once per `vitest run --project api`: a fresh store (temp SQLite data dir, or with
// GATEHOUSE_TEST_DB=postgres a fresh `gh_test_*` database), the real server on a free port, a
// control-plane administrator made with the CLI and signed in once. Teardown stops the server and
// drops every database it made. GATEHOUSE_TEST_KEEP=1 keeps the data directory for a post-mortem.

const LOG_ROOT = join(tmpdir(), 'gatehouse-e2e-logs');

const RUN_DIR_PREFIX = 'gatehouse-api-e2e-';

/** Removes what runs older than a day left behind: their logs, and data directories of killed runs. */
function pruneOldRuns(): void {
  mkdirSync(LOG_ROOT, { recursive: true });
  const old = (p: string) => Date.now() - statSync(p).mtimeMs > 24 * 3600 * 1000;
  const candidates = [
    ...readdirSync(LOG_ROOT).map((n) => join(LOG_ROOT, n)),
    ...readdirSync(tmpdir())
      .filter((n) => n.startsWith(RUN_DIR_PREFIX))
      .map((n) => join(tmpdir(), n)),
  ];
  for (const p of candidates) {
    try {
      if (old(p)) rmSync(p, { recursive: true, force: true });
    } catch {
      /* raced with another run */
    }
  }
}

function redisReachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/** GATEHOUSE_TEST_INSTANCES=N: N instances on the one store behind a round-robin proxy (issue 14). */
function instanceCount(): number {
  const n = Number(process.env.GATEHOUSE_TEST_INSTANCES ?? '1');
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Redis is used on the PostgreSQL run (the multi-instance setup); GATEHOUSE_TEST_REDIS=0|1 overrides. */
function chooseRedis(engine: string): string | undefined {
  const flag = process.env.GATEHOUSE_TEST_REDIS;
  const use = flag === undefined ? engine === 'postgres' : flag === '1' || flag === 'true';
  return use ? (process.env.GATEHOUSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379') : undefined;
}

type Started = { info: SuiteInfo; teardown: () => Promise<void> };
type Shared = { started?: Promise<Started>; users: number };

/**
 * The HTTP suite is two vitest projects (vitest.config.ts): files that run in parallel, then files
 * that need the server to themselves. Both get the same server: the first project's set-up starts
 * it, the last teardown stops it (kept on globalThis: each project may load this module afresh).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = ((globalThis as { __gatehouseApiSuite?: Shared }).__gatehouseApiSuite ??= { users: 0 });
  shared.users++;
  shared.started ??= start();
  const { info, teardown } = await shared.started;
  project.provide('gatehouse', info);
  return async () => {
    if (--shared.users > 0) return;
    shared.started = undefined;
    await teardown();
  };
}

async function start(): Promise<Started> {
  const engine = engineFromEnv();
  const mode = chooseMode();
  const runId = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomSuffix(3)}`;
  pruneOldRuns();
  const runDir = mkdtempSync(join(tmpdir(), RUN_DIR_PREFIX));
  const logDir = join(LOG_ROOT, runId);
  const redisUrl = chooseRedis(engine);
  if (redisUrl && !(await redisReachable(redisUrl))) {
    throw new Error(`Redis does not answer at ${redisUrl} (start it, or run with GATEHOUSE_TEST_REDIS=0)`);
  }

  if (engine === 'postgres') {
    const swept = await sweepAbandonedPgStorage().catch(() => []);
    if (swept.length) console.log(`[e2e] dropped ${swept.length} test database(s) left by killed runs: ${swept.join(', ')}`);
  }
  const storage = await createStorage(engine, runDir, 'main');
  let server: ServerHandle | undefined;
  let mail: MailCapture | undefined;
  let proxy: RoundRobinProxy | undefined;
  const siblings: ServerHandle[] = [];
  const pidFile = join(runDir, 'main.pid');
  const teardown = async () => {
    try {
      const pid = Number(readFileSync(pidFile, 'utf8'));
      if (pid) await stopPid(pid);
    } catch {
      /* never started */
    }
    await server?.stop();
    await Promise.all(siblings.map((s) => s.stop()));
    if (proxy) console.log(`[e2e] connections per instance through the proxy: ${proxy.connectionsPerTarget().join(', ')}`);
    await proxy?.close();
    await mail?.stop();
    await destroyStorage(storage).catch((e: unknown) => console.error('[e2e] could not drop the test storage:', e));
    if (process.env.GATEHOUSE_TEST_KEEP !== '1') rmSync(runDir, { recursive: true, force: true });
  };

  try {
    const port = await freePort();
    mail = await startMailCapture(join(runDir, 'mail'));
    const pair = instanceCount();
    if (pair > 1 && mode !== 'prod') throw new Error('GATEHOUSE_TEST_INSTANCES > 1 needs the production build (npm run build)');
    // Several instances: a round-robin proxy in front, whose port is the public one of every instance.
    const others = await Promise.all(Array.from({ length: pair - 1 }, () => freePort()));
    proxy = pair > 1 ? await startRoundRobinProxy([port, ...others]) : undefined;
    const publicPort: Record<string, string> = proxy ? { GATEHOUSE_PUBLIC_PORT: String(proxy.port) } : {};
    const env = serverEnv(port, storage, redisUrl, { SMTP_URL: mail.url, ...publicPort });
    console.log(`[e2e] starting the ${mode} server on port ${port} (${engine}${redisUrl ? ' + redis' : ''}); logs in ${logDir}`);
    const started = Date.now();
    server = await startServer({ name: 'main', port, mode, env, logDir });
    writeFileSync(pidFile, String(server.pid));
    for (const [i, otherPort] of others.entries()) {
      const otherEnv = serverEnv(otherPort, storage, redisUrl, { SMTP_URL: mail.url, ...publicPort });
      siblings.push(await startServer({ name: `instance-${i + 2}`, port: otherPort, mode, env: otherEnv, logDir }));
    }
    console.log(`[e2e] server ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (proxy) console.log(`[e2e] ${pair} instances (ports ${[port, ...others].join(', ')}) behind a round-robin proxy on port ${proxy.port}`);

    const admin: AdminAccount = { userName: 'e2e-admin', email: 'e2e-admin@example.test', password: `Adm1n-${randomSuffix(8)}` };
    const cli = await runCli(env, ['recover', 'bootstrap-admin', '--email', admin.email, '--username', admin.userName, '--password', admin.password]);
    if (cli.code !== 0) throw new Error(`gatehouse recover bootstrap-admin --password failed (${cli.code}): ${cli.stderr}`);
    const login = await sendRequest(port, `localhost:${port}`, 'POST', '/api/account/login', { body: { UserName: admin.userName, Password: admin.password } });
    const sessionCookie = login.setCookies.map((c) => c.split(';')[0]).find((c) => c.includes('session'));
    if (login.status !== 200 || !sessionCookie || !cookieFrom(login.setCookies, sessionCookie.split('=')[0])) {
      throw new Error(`the control-plane administrator cannot sign in: ${login.status} ${login.text}`);
    }

    const info: SuiteInfo = {
      port: proxy?.port ?? port,
      instances: pair,
      instancePorts: [port, ...others],
      mode,
      storage,
      redisUrl,
      env,
      runDir,
      logDir,
      pidFile,
      admin,
      adminCookie: sessionCookie,
      mailDir: mail.dir,
    };
    return { info, teardown };
  } catch (e) {
    await teardown();
    throw e;
  }
}

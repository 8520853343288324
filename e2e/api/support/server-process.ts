import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerMode, Storage } from './types';

// Starting and stopping the REAL server as a child process. Nothing here is built: the production
// build (dist/server.js + .next/BUILD_ID) is used when present, else `server.ts` through tsx.

export const repoRoot = resolve(fileURLToPath(new URL('../../../', import.meta.url)));

/** The certificate of the tests' metadata host (tls/README.md), which test servers trust. */
export const METADATA_HOST_CERT = join(repoRoot, 'e2e', 'api', 'support', 'tls', 'metadata-host.cert.pem');

/** The node arguments that start the server in a mode: the build, or the source through tsx. */
export function serverArgs(mode: ServerMode): string[] {
  return mode === 'prod' ? [join(repoRoot, 'dist', 'server.js')] : ['--import', 'tsx', join(repoRoot, 'server.ts')];
}

/** `GATEHOUSE_TEST_SERVER=prod|dev` forces a mode; otherwise prod when a build exists. */
export function chooseMode(): ServerMode {
  const forced = process.env.GATEHOUSE_TEST_SERVER;
  const built = existsSync(join(repoRoot, 'dist', 'server.js')) && existsSync(join(repoRoot, '.next', 'BUILD_ID'));
  if (forced === 'prod') {
    if (!built) throw new Error('GATEHOUSE_TEST_SERVER=prod but there is no production build: run `npm run build` first.');
    return 'prod';
  }
  if (forced === 'dev') return 'dev';
  if (forced) throw new Error(`GATEHOUSE_TEST_SERVER must be "prod" or "dev", not ${JSON.stringify(forced)}`);
  return built ? 'prod' : 'dev';
}

export function randomSuffix(bytes = 5): string {
  return randomBytes(bytes).toString('hex');
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

/** GATEHOUSE_OUTBOUND_ALLOW of the test servers: loopback up to 127.127.255.255, and localhost. */
export const TEST_OUTBOUND_ALLOW = '127.0.0.0/9,localhost';

// Settings the server reads; none of the caller's may leak into a test server.
const OWN_ENV = /^(GATEHOUSE_|DATABASE_URL$|REDIS_URL$|SMTP_URL$|PORT$|NODE_ENV$|VITEST|NEXT_)/;

/** The environment of a server (and of the CLI) on `storage`, with `extra` settings on top. */
/**
 * The encryption key of a test store (production servers require one). Derived from the store's
 * identity, so every server and CLI run on one store, in any test process, uses the same key.
 */
export function testSecretKey(storage: Storage): string {
  return createHash('sha256')
    .update(`gatehouse-test-key:${storage.dataDir}:${storage.databaseUrl ?? ''}`)
    .digest('base64');
}

export function serverEnv(port: number, storage: Storage, redisUrl: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !OWN_ENV.test(k)) env[k] = v;
  env.PORT = String(port);
  env.GATEHOUSE_DATA_DIR = storage.dataDir;
  if (storage.databaseUrl) env.DATABASE_URL = storage.databaseUrl;
  if (redisUrl) env.REDIS_URL = redisUrl;
  env.NEXT_TELEMETRY_DISABLED = '1';
  env.GATEHOUSE_SECRET_KEY = testSecretKey(storage);
  // Without Redis, changes made by another process (the CLI's key rotation) reach the server when
  // its cached realm record expires: a few seconds here rather than the production minute.
  env.GATEHOUSE_REALM_CACHE_SECONDS = '3';
  // The peers a realm reaches out to run on this machine: Client ID Metadata Documents over https
  // (metadata-host.ts, whose test certificate the server trusts), upstream OIDC providers and
  // directories (e2e/shared/peers) on 127.0.0.1, another realm on a 127.x address. The outbound
  // policy opens the lower half of 127/8 for them and leaves 127.128.0.0 and above refused, which
  // the outbound-policy tests aim at (external-identity/outbound-policy.test.ts).
  env.GATEHOUSE_OUTBOUND_ALLOW = TEST_OUTBOUND_ALLOW;
  env.NODE_EXTRA_CA_CERTS = METADATA_HOST_CERT;
  // A development server needs its own Next build folder when another one runs in this checkout.
  if (process.env.GATEHOUSE_NEXT_DIST_DIR) env.GATEHOUSE_NEXT_DIST_DIR = process.env.GATEHOUSE_NEXT_DIST_DIR;
  return { ...env, ...extra };
}

export type ServerHandle = {
  pid: number;
  port: number;
  mode: ServerMode;
  logFile: string;
  env: Record<string, string>;
  stop(): Promise<void>;
};

function get(port: number, path: string, timeoutMs: number): Promise<number> {
  return new Promise((resolveStatus) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host: 'health.invalid' }, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolveStatus(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolveStatus(0));
    req.end();
  });
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/**
 * Spawns a server in its own process group, waits until `/health` answers 200 and returns a handle.
 * A server that exits or does not answer within `startTimeoutMs` fails with the tail of its log.
 */
export async function startServer(options: {
  name: string;
  port: number;
  mode: ServerMode;
  env: Record<string, string>;
  logDir: string;
  startTimeoutMs?: number;
}): Promise<ServerHandle> {
  const { name, port, mode, logDir } = options;
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `${name}-${port}.log`);
  const log = createWriteStream(logFile, { flags: 'a' });
  const env = { ...options.env, PORT: String(port), NODE_ENV: mode === 'prod' ? 'production' : 'development' };
  const child = spawn(process.execPath, serverArgs(mode), { cwd: repoRoot, env: env as NodeJS.ProcessEnv, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not spawn the ${name} server`);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), 10_000);
      await exited(child);
      clearTimeout(timer);
    }
    // The process group may hold children (Next workers): make sure none survives.
    killGroup(pid, 'SIGKILL');
    log.end();
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? (mode === 'prod' ? 60_000 : 180_000));
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      const log = tail(logFile);
      const hint = /already running/.test(log)
        ? '\nNext.js allows one development server per checkout and another one runs here (`npm run dev`, or another test run): stop it, or run `npm run build` so the tests use the production build.'
        : '';
      throw new Error(`the ${name} server (${mode}) exited during start-up (code ${child.exitCode}). Log ${logFile}:\n${log}${hint}`);
    }
    if ((await get(port, '/health', 2000)) === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the ${name} server (${mode}) did not answer /health on port ${port} in time. Log ${logFile}:\n${tail(logFile)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { pid, port, mode, logFile, env, stop };
}

/** Sends SIGTERM (then SIGKILL) to a server started by another process, by its pid. */
export async function stopPid(pid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  killGroup(pid, 'SIGKILL');
}

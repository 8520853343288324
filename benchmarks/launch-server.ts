import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request } from './http';

// Starts the production build (`node dist/server.js`) as the bench's server, and runs the CLI (from
// source, bin/gatehouse.mjs) with the same environment. The server's output goes to a log file in its data directory.

export const ROOT = fileURLToPath(new URL('../', import.meta.url));

// The servers run from a copy of the build, so an `npm run build` in the work tree while the bench
// runs cannot swap files under them. node_modules stays shared through a symlink (the build's own
// .next/node_modules links are relative and resolve through it).
let appDir = ROOT;
// `--source`: servers run `server.ts` through tsx in development mode (no build needed; Next compiles
// each route on its first request, and its compiler makes the process larger).
let fromSource = false;
export function runFromSource(): void {
  fromSource = true;
}
// A production server needs its encryption key from outside the data; one per benchmark run.
const BENCH_SECRET_KEY = randomBytes(32).toString('base64');
const SERVER = () => join(appDir, 'dist', 'server.js');
// The CLI is not part of the build: bin/gatehouse.mjs always runs it from source (through tsx).
const CLI = () => join(ROOT, 'bin', 'gatehouse.mjs');
const SKIP_IN_SNAPSHOT = new Set(['cache', 'dev', 'trace', 'trace-build', 'diagnostics', 'types']);

export function snapshotBuild(dir: string): void {
  mkdirSync(dir, { recursive: true });
  cpSync(join(ROOT, '.next'), join(dir, '.next'), {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => !SKIP_IN_SNAPSHOT.has(src.slice(join(ROOT, '.next').length + 1)),
  });
  // lib/ for the worker threads the server starts from source files resolved from its working
  // directory (the script sandbox's script-worker.mjs, the SAML ACS's validate-worker.mjs).
  for (const name of ['dist', 'public', 'next.config.mjs', 'package.json', 'lib']) {
    if (existsSync(join(ROOT, name))) cpSync(join(ROOT, name), join(dir, name), { recursive: true, verbatimSymlinks: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  appDir = dir;
}

export type StorageEnv = { dataDir: string; databaseUrl?: string };

export type RunningServer = {
  port: number;
  pid: number;
  env: NodeJS.ProcessEnv;
  logFile: string;
  /** Resident set size and its peak so far, in MiB (from /proc). */
  memory(): { rssMiB: number; peakMiB: number };
  /** CPU time the server process used so far (all threads: event loop, libuv pool, GC), in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
};

export function isBuilt(): boolean {
  return existsSync(join(ROOT, 'dist', 'server.js')) && existsSync(join(ROOT, '.next', 'BUILD_ID'));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** The environment of both the server and the CLI. Inherits the caller's (rate-limit overrides). */
export function gatehouseEnv(port: number, storage: StorageEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    GATEHOUSE_DATA_DIR: storage.dataDir,
    GATEHOUSE_LOG_QUIET: '1',
    GATEHOUSE_SECRET_KEY: process.env.GATEHOUSE_SECRET_KEY ?? BENCH_SECRET_KEY,
    // The external sign-in phase's upstream OIDC provider and slapd run on 127.0.0.1 (phase-external.ts).
    GATEHOUSE_OUTBOUND_ALLOW: '127.0.0.1',
  };
  if (storage.databaseUrl) env.DATABASE_URL = storage.databaseUrl;
  else delete env.DATABASE_URL;
  delete env.REDIS_URL; // in-process counters and cache: one instance
  return env;
}

function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
}

// /proc/<pid>/stat fields 14 and 15 (utime, stime) in clock ticks; 100 per second on Linux.
const TICKS_PER_SECOND = 100;
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

async function waitHealthy(port: number, child: ChildProcess, logFile: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}; see ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      const r = await request({ port, path: '/health' });
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`server did not answer /health within ${timeoutMs / 1000} s; see ${logFile}`);
}

export async function startServer(storage: StorageEnv, port?: number, extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const p = port ?? (await freePort());
  const env = { ...gatehouseEnv(p, storage), ...extraEnv };
  const logFile = join(storage.dataDir, `server-${p}.log`);
  if (!fromSource) return startNodeProcess([SERVER()], { cwd: appDir, env, port: p, logFile });
  // A development server needs a Next build folder of its own (GATEHOUSE_NEXT_DIST_DIR, next.config.mjs);
  // the caller may pass one to share it with a later server of the same data directory.
  const distDir = extraEnv.GATEHOUSE_NEXT_DIST_DIR ?? `.next-bench-${randomBytes(4).toString('hex')}`;
  const server = await startNodeProcess(['--import', 'tsx', join(ROOT, 'server.ts')], {
    cwd: ROOT,
    env: { ...env, NODE_ENV: 'development', GATEHOUSE_NEXT_DIST_DIR: distDir },
    port: p,
    logFile,
    startTimeoutMs: 240_000,
  });
  const stop = server.stop;
  return {
    ...server,
    stop: async () => {
      await stop();
      if (!extraEnv.GATEHOUSE_NEXT_DIST_DIR) rmSync(join(ROOT, distDir), { recursive: true, force: true });
    },
  };
}

/**
 * `node <args>` as a bench server that answers GET /health on `port`; its output goes to `logFile`.
 * Also used for the bare oidc-provider of the `oauth` bench, so both are started, profiled and
 * measured alike.
 */
export async function startNodeProcess(
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; port: number; logFile: string; startTimeoutMs?: number },
): Promise<RunningServer> {
  const { env, logFile, port: p } = o;
  const log = createWriteStream(logFile, { flags: 'a' });
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops (open it in
  // Chrome DevTools, or sum self time per function) to see what dominates a missed target.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  // BENCH_NODE_ARGS="--flag ...": extra Node.js flags for every bench server (an A/B of a runtime flag).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...profile, ...args], { cwd: o.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  await waitHealthy(p, child, logFile, o.startTimeoutMs);
  const pid = child.pid ?? 0;
  return {
    port: p,
    pid,
    env,
    logFile,
    memory: () => memoryOf(pid),
    cpuMs: () => cpuMsOf(pid),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      log.end();
    },
  };
}

/** `gatehouse <args>` through bin/gatehouse.mjs (source, via tsx), with the server's environment; resolves stdout. */
export function runCli(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI(), ...args], { cwd: ROOT, env, timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`gatehouse ${args.slice(0, 2).join(' ')} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

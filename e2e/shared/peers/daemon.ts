import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The plumbing the daemon-backed test peers share (slapd, krb5kdc, SimpleSAMLphp under `php -S`):
// each runs a real Debian daemon as our child, on a port chosen free on 127.0.0.1, with its own
// temporary directory. Kept in one place so that every peer waits for its daemon with a deadline,
// says why it did not start (the tail of the daemon's stderr), and leaves neither a process nor files
// behind, whether the test calls stop(), the start fails, or the test process ends first.
// (oidc-upstream.ts runs in-process on a port the kernel picks, so it needs none of this.)

const STDERR_KEEP = 16_384;
const TOOL_WITHIN_MS = 30_000;

/**
 * A port free on 127.0.0.1 at the time of asking; with `udp`, free for UDP as well (the KDC listens
 * on both). Another process may take it before the daemon binds it: see `retryOnPortRace`.
 */
export async function freeLoopbackPort(options: { udp?: boolean } = {}): Promise<number> {
  if (!options.udp) return freeTcpPort();
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freeTcpPort();
    if (await udpPortIsFree(port)) return port;
  }
  throw new Error('no port free for both TCP and UDP on 127.0.0.1');
}

function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function udpPortIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });
}

/** A running daemon: whether it has gone, and the tail of what it wrote to stderr (why it went). */
export type Daemon = { exited(): boolean; stderrTail(): string };

/** A temporary directory and the daemon that runs in it, cleaned up together. */
export type DaemonHome = {
  dir: string;
  /** Starts the daemon in the foreground, as our child (stdout ignored, stderr kept). */
  spawn(command: string, args: string[], env?: NodeJS.ProcessEnv): Daemon;
  /** SIGTERM, then SIGKILL if it has not exited within the grace period; nothing if none runs. */
  stopDaemon(): Promise<void>;
  /** Stops the daemon and removes the directory: a peer's stop(), or the clean-up of a failed start. */
  remove(): Promise<void>;
};

export function makeDaemonHome(prefix: string, options: { graceMs?: number } = {}): DaemonHome {
  const graceMs = options.graceMs ?? 3_000;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let child: ChildProcess | undefined;
  const killOnExit = () => {
    // The test process is ending without stop(): do not leave a daemon or its files behind.
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);
  const stopDaemon = async () => {
    const running = child;
    child = undefined;
    if (running) await terminate(running, graceMs);
  };
  return {
    dir,
    spawn(command, args, env) {
      if (child) throw new Error(`${command}: the daemon of ${dir} is still running`);
      const started = spawnKeepingStderr(command, args, env);
      child = started.child;
      return started.daemon;
    },
    stopDaemon,
    async remove() {
      process.removeListener('exit', killOnExit);
      await stopDaemon();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function spawnKeepingStderr(command: string, args: string[], env: NodeJS.ProcessEnv | undefined): { child: ChildProcess; daemon: Daemon } {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(env ? { env } : {}) });
  let stderr = '';
  let exited = false;
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (s: string) => (stderr = (stderr + s).slice(-STDERR_KEEP)));
  child.on('exit', () => (exited = true));
  child.on('error', (e) => {
    exited = true;
    stderr += `\n${e.message}`;
  });
  return { child, daemon: { exited: () => exited, stderrTail: () => stderr } };
}

async function terminate(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const inTime = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!inTime) {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * Asks `probe` every `everyMs` until it answers (resolves), and returns its answer. Fails at once
 * when the daemon exits, and once `withinMs` has passed; both errors carry the daemon's stderr.
 * `what` names the daemon and where it should answer, e.g. `slapd on ldap://127.0.0.1:4242`.
 */
export async function waitUntilAnswering<T>(daemon: Daemon, what: string, probe: () => Promise<T>, timing: { withinMs: number; everyMs: number }): Promise<T> {
  const deadline = Date.now() + timing.withinMs;
  for (;;) {
    if (daemon.exited()) throw new Error(`${what} exited before answering:\n${daemon.stderrTail()}`);
    try {
      return await probe();
    } catch (e) {
      if (Date.now() > deadline)
        throw new Error(`${what} did not answer within ${timing.withinMs} ms (${(e as Error).message}):\n${daemon.stderrTail()}`, { cause: e });
    }
    await sleep(timing.everyMs);
  }
}

/**
 * Runs `start` (choose a port, spawn, wait) up to `attempts` times, stopping the daemon of a failed
 * attempt: the port is chosen free, then bound by the daemon, and another process may take it in between.
 */
export async function retryOnPortRace<T>(home: DaemonHome, start: () => Promise<T>, attempts = 3): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await start();
    } catch (e) {
      lastError = e;
      await home.stopDaemon();
    }
  }
  throw lastError;
}

/** Runs a setup tool (slapadd, openssl, kadmin.local, kinit) to its end, `input` on its stdin; answers its output, or fails with it. */
export function runTool(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { timeout: TOOL_WITHIN_MS, ...(options.env ? { env: options.env } : {}) }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout + stderr);
      const why = error.killed ? `no end within ${TOOL_WITHIN_MS} ms` : typeof error.code === 'number' ? `exit code ${error.code}` : error.message;
      reject(new Error(`${command} ${args.join(' ')} failed (${why}): ${(stdout + stderr).trim()}`));
    });
    // A tool that exits without reading its stdin makes this write fail with EPIPE; its exit (above)
    // is what tells success from failure, so the write's own error is not one more.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort } from './daemon';

// A private, throw-away PostgreSQL cluster (Debian's initdb and pg_ctl) on a free loopback port, for
// what must not touch the machine's shared server: a fault test that stops and restarts it under a
// running Gatehouse, and the bench's thousand CREATE DATABASE. PostgreSQL refuses to run as root, so
// as root the cluster belongs to the `postgres` user. Trust authentication, stock settings.

export type PostgresCluster = {
  port: number;
  /** The `postgres` database's URL, for DDL. */
  adminUrl: string;
  /** A database's URL on this cluster. */
  urlOf(database: string): string;
  /** Fast shutdown (clients are disconnected); the data stays for `start`. */
  stop(): Promise<void>;
  /** Starts the stopped cluster again on the same port. */
  start(): Promise<void>;
  /** Immediate shutdown and the directory removed. */
  remove(): Promise<void>;
};

const BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin', '/usr/local/bin', '/usr/bin'];
const binary = (name: string) => BIN_DIRS.map((d) => join(d, name)).find((p) => existsSync(p));

export async function startPostgresCluster(options: { parentDir?: string } = {}): Promise<PostgresCluster> {
  const initdb = binary('initdb');
  const pgCtl = binary('pg_ctl');
  if (!initdb || !pgCtl) throw new Error('initdb/pg_ctl not found (Debian package postgresql)');
  const parent = options.parentDir ?? mkdtempSync(join(tmpdir(), 'gatehouse-pg-'));
  const dir = join(parent, 'pg');
  // What remove() deletes: the whole temporary directory when it is ours, else only the cluster's.
  const removable = options.parentDir ? dir : parent;
  const data = join(dir, 'data');
  mkdirSync(dir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chmodSync(parent, 0o755); // the cluster directory's parent must be reachable for postgres
    chownSync(dir, uid, gid);
  }
  const run = (cmd: string, args: string[]) => {
    const r = asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' }) : spawnSync(cmd, args, { stdio: 'pipe' });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr?.toString() ?? ''}${r.stdout?.toString() ?? ''}`);
  };
  const port = await freeLoopbackPort();
  run(initdb, ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  const start = async () =>
    run(pgCtl, ['-D', data, '-l', join(dir, 'postgres.log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  const stopWith = (mode: 'fast' | 'immediate') => run(pgCtl, ['-D', data, '-m', mode, '-w', '-t', '120', 'stop']);
  let running = false;
  const removeOnExit = () => {
    if (running)
      spawnSync(
        asRoot ? 'runuser' : pgCtl,
        asRoot ? ['-u', 'postgres', '--', pgCtl, '-D', data, '-m', 'immediate', 'stop'] : ['-D', data, '-m', 'immediate', 'stop'],
      );
    rmSync(removable, { recursive: true, force: true });
  };
  process.once('exit', removeOnExit);
  try {
    await start();
    running = true;
  } catch (e) {
    process.removeListener('exit', removeOnExit);
    rmSync(removable, { recursive: true, force: true });
    throw e;
  }
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    port,
    adminUrl,
    urlOf: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async stop() {
      stopWith('fast');
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async remove() {
      process.removeListener('exit', removeOnExit);
      // Immediate: the cluster is thrown away, so skip the shutdown checkpoint.
      if (running) stopWith('immediate');
      running = false;
      rmSync(removable, { recursive: true, force: true });
    },
  };
}

import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from './harness';
import { freePort, randomSuffix, repoRoot, serverEnv, startServer, type ServerHandle } from './server-process';
import type { Storage } from './types';

// Extra Gatehouse instances beside the suite's server (several instances, faults): by default on
// the suite's own store and environment, so what one instance writes the others read. Each gets a
// port of its own and, as a development server, a Next build folder of its own (production servers
// all serve the one build). `stopInstances` stops every one started and removes those folders.

const started: ServerHandle[] = [];
const distDirs: string[] = [];

export async function startInstance(
  name: string,
  /** `redisUrl: ''` runs it without Redis. */
  options: { env?: Record<string, string>; storage?: Storage; redisUrl?: string } = {},
): Promise<ServerHandle> {
  const s = suite();
  const port = await freePort();
  const own: Record<string, string> = {};
  if (s.mode === 'dev') {
    own.GATEHOUSE_NEXT_DIST_DIR = `.next-${name}-${randomSuffix(3)}`;
    distDirs.push(join(repoRoot, own.GATEHOUSE_NEXT_DIST_DIR));
  }
  const storage = options.storage ?? s.storage;
  // The suite's environment names its store and Redis: a store or Redis of the instance's own replaces them.
  const inherited = { ...s.env };
  if (options.storage) for (const k of ['DATABASE_URL', 'GATEHOUSE_DATA_DIR']) delete inherited[k];
  if (options.redisUrl !== undefined) delete inherited.REDIS_URL;
  const redisUrl = options.redisUrl ?? s.redisUrl;
  const env = serverEnv(port, storage, redisUrl || undefined, {
    ...inherited,
    PORT: String(port),
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...own,
    ...options.env,
  });
  const server = await startServer({ name: `${name}-${randomSuffix(3)}`, port, mode: s.mode, env, logDir: s.logDir });
  started.push(server);
  return server;
}

export async function stopInstances(): Promise<void> {
  await Promise.all(started.splice(0).map((s) => s.stop()));
  for (const dir of distDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

import { readFileSync, writeFileSync } from 'node:fs';
import { freePort, serverEnv, startServer, stopPid, type ServerHandle } from './server-process';
import { createStorage, destroyStorage } from './storage';
import type { ServerMode, Storage } from './types';
import { suite } from './harness';

// A second server for one test file: with the main server's store (a crash-injecting twin) or a
// fresh store of its own (control-plane transfer, storage outages). Next allows one development
// server per directory, so when the main server itself runs in development mode it is stopped
// while the extra one runs and restarted afterwards on the same port and store.

export type ExtraServer = ServerHandle & { storage: Storage; env: Record<string, string> };

export async function startExtraServer(options: {
  name: string;
  /** `shared`: the main server's store; `fresh`: a new empty one, dropped at stop. */
  storage: 'shared' | 'fresh';
  /** Defaults to the main server's mode. */
  mode?: ServerMode;
  env?: Record<string, string>;
}): Promise<ExtraServer> {
  const s = suite();
  const mode = options.mode ?? s.mode;
  const logDir = s.logDir;
  const storage = options.storage === 'shared' ? s.storage : await createStorage(s.storage.engine, s.runDir, options.name);
  const mustPauseMain = mode === 'dev' && s.mode === 'dev';
  if (mustPauseMain) await stopPid(Number(readFileSync(s.pidFile, 'utf8')));

  const port = await freePort();
  const env = serverEnv(port, storage, s.redisUrl, options.env ?? {});
  let handle: ServerHandle;
  try {
    handle = await startServer({ name: options.name, port, mode, env, logDir });
  } catch (e) {
    if (options.storage === 'fresh') await destroyStorage(storage).catch(() => undefined);
    if (mustPauseMain) await restartMain();
    throw e;
  }
  return {
    ...handle,
    storage,
    env,
    stop: async () => {
      await handle.stop();
      if (options.storage === 'fresh') await destroyStorage(storage);
      if (mustPauseMain) await restartMain();
    },
  };
}

async function restartMain(): Promise<void> {
  const s = suite();
  const main = await startServer({ name: 'main-restarted', port: s.port, mode: s.mode, env: s.env, logDir: s.logDir });
  writeFileSync(s.pidFile, String(main.pid));
}

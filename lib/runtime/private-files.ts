import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// What Gatehouse writes to disk (SQLite databases with their -wal/-shm files, the development
// outbox, which holds sign-in links) is readable by its own user only: directories 0700, files
// 0600. The umask makes that the default for every file the process (and the SQLite driver) creates;
// the explicit modes below also tighten what an older version left behind.

const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Process-wide: files are created 0600 and directories 0700 whoever creates them. */
export function usePrivateUmask(): void {
  process.umask(0o077);
}

/** mkdir -p with mode 0700, and the directory itself set to 0700 when it already existed. */
export function mkdirPrivate(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Sets the data directory to 0700 and everything under it (two levels: `realms/`, `outbox/`) to
 * 0700 for directories and 0600 for files. Run at start-up, so an upgrade fixes an existing store.
 */
export function tightenDataDir(dataDir: string): void {
  const walk = (dir: string, depth: number) => {
    chmodSync(dir, PRIVATE_DIR_MODE);
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st) continue; // removed meanwhile
      if (st.isDirectory()) {
        if (depth > 0) walk(path, depth - 1);
      } else if (st.isFile() && (st.mode & 0o077) !== 0) {
        chmodSync(path, PRIVATE_FILE_MODE);
      }
    }
  };
  walk(dataDir, 2);
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { RealmDb } from '../db/types';

// For unit tests of repositories and domain rules against a real (SQLite) realm database. Call it
// before anything reads the settings: it points GATEHOUSE_DATA_DIR at a fresh temporary folder.
export async function tempRealmDb(): Promise<{ db: RealmDb; name: string; dispose: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-unit-'));
  process.env.GATEHOUSE_DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  const { createRealmDatabase, realmDatabaseName } = await import('../db/realm-databases');
  const { getRealmDb, closeAllRealmDbs } = await import('../db/realm-pool');
  const name = realmDatabaseName(randomUUID());
  await createRealmDatabase(name);
  const db = await getRealmDb(name);
  return {
    db,
    name,
    dispose: async () => {
      await closeAllRealmDbs();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

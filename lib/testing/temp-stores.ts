import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

// For unit tests that run against both storage engines: the local PostgreSQL server (when it
// answers) and fresh stores to point the settings at. Import the modules under test after
// `useTempStores` (with vi.resetModules()), so lib/config/env.ts parses the new environment.

export const POSTGRES_ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** Runs one statement on the server's maintenance database (or `url`). */
export async function adminQuery(sql: string, url = POSTGRES_ADMIN_URL): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Whether the local PostgreSQL server answers; warns, naming what is skipped, when it does not. */
export async function postgresReachable(skipped: string): Promise<boolean> {
  const up = await adminQuery('SELECT 1').then(
    () => true,
    () => false,
  );
  if (!up) console.warn(`PostgreSQL unreachable at ${POSTGRES_ADMIN_URL}: ${skipped} skipped`);
  return up;
}

/**
 * Points the environment at fresh stores: a temporary data directory and, on PostgreSQL, a new
 * global database on the local server (DATABASE_URL). `restore` drops them and puts the environment back.
 */
export async function useTempStores(engine: 'sqlite' | 'postgresql'): Promise<{ dataDir: string; restore: () => Promise<void> }> {
  const saved = { ...process.env };
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-unit-'));
  const globalName = `gh_test_global_${randomBytes(6).toString('hex')}`;
  process.env.GATEHOUSE_DATA_DIR = dataDir;
  if (engine === 'postgresql') {
    await adminQuery(`CREATE DATABASE "${globalName}"`);
    const url = new URL(POSTGRES_ADMIN_URL);
    url.pathname = `/${globalName}`;
    process.env.DATABASE_URL = url.toString();
  } else {
    delete process.env.DATABASE_URL;
  }
  return {
    dataDir,
    restore: async () => {
      if (engine === 'postgresql') await adminQuery(`DROP DATABASE IF EXISTS "${globalName}" WITH (FORCE)`);
      rmSync(dataDir, { recursive: true, force: true });
      process.env = saved;
    },
  };
}

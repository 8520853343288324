import { closeSync, existsSync, openSync, rmSync } from 'node:fs';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../runtime/private-files';
import { assertDatabaseName, dialect, globalPostgresUrl, realmPostgresUrl, realmSqlitePath, realmsSqliteDir } from './dialect';
import { migratePostgresUrl, migrateSqliteFile, withPgClient } from './migrate';
import { evictRealmDb } from './realm-pool';

// Creating and dropping a realm's own database (spec 1: one database per realm). PostgreSQL DDL
// runs from a short-lived admin client on the DATABASE_URL database; realm creation calls
// dropRealmDatabase to undo a half-made realm (spec 4.8), so drop tolerates a missing database.

const PREFIX = 'gh_r_';

/** The database name of a realm: `gh_r_<uuid hex>`, a valid PostgreSQL identifier and file stem. */
export function realmDatabaseName(realmId: string): string {
  const stem = realmId.toLowerCase().replace(/[^0-9a-z]/g, '');
  const name = `${PREFIX}${stem}`;
  if (stem.length === 0 || name.length > 63) throw new Error(`Cannot derive a database name from realm id ${JSON.stringify(realmId)}`);
  return name;
}

function removeSqliteFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}

/** Creates the realm database and applies every realm migration; fails if it already exists. */
export async function createRealmDatabase(name: string): Promise<void> {
  assertDatabaseName(name);
  if (dialect() === 'postgresql') {
    await withPgClient(globalPostgresUrl(), (admin) => admin.query(`CREATE DATABASE "${name}"`));
    try {
      await migratePostgresUrl(realmPostgresUrl(name), 'realm');
    } catch (err) {
      await dropRealmDatabase(name).catch(() => {});
      throw err;
    }
    return;
  }
  const file = realmSqlitePath(name);
  mkdirPrivate(realmsSqliteDir());
  // 'wx': never adopt or overwrite another realm's file, even when two creates race.
  closeSync(openSync(file, 'wx', PRIVATE_FILE_MODE));
  try {
    migrateSqliteFile(file, 'realm', { create: false });
  } catch (err) {
    removeSqliteFiles(file);
    throw err;
  }
}

/** Closes the pooled client, then removes the database (connected sessions are terminated). */
export async function dropRealmDatabase(name: string): Promise<void> {
  assertDatabaseName(name);
  await evictRealmDb(name);
  if (dialect() === 'postgresql') {
    await withPgClient(globalPostgresUrl(), (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    return;
  }
  removeSqliteFiles(realmSqlitePath(name));
}

export async function realmDatabaseExists(name: string): Promise<boolean> {
  assertDatabaseName(name);
  if (dialect() === 'postgresql') {
    const { rowCount } = await withPgClient(globalPostgresUrl(), (admin) => admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]));
    return (rowCount ?? 0) > 0;
  }
  return existsSync(realmSqlitePath(name));
}

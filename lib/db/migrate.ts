import Database from 'better-sqlite3';
import pg from 'pg';
import { settings } from '../config/env';
import { logError } from '../log/logger';
import { mkdirPrivate, tightenDataDir } from '../runtime/private-files';
import { dialect, globalPostgresUrl, globalSqlitePath, realmPostgresUrl, realmSqlitePath, type Dialect } from './dialect';
import { migrations, type MigrationScript } from './migrations/generated';
import { configureSqlite } from './sqlite-pragmas';

// Applies the committed SQL (prisma/migrations, embedded in ./migrations/generated.ts) with the raw
// drivers and our own bookkeeping table: Prisma's migrate cannot run here (docs/environment.md).
// Each migration runs in its own transaction and is recorded in the same transaction, so a crash
// leaves either all of it or none. Two processes may race (two instances starting, or a request
// opening a realm while `gatehouse migrate` runs): the loser waits for the lock, then sees the
// migration recorded and skips it.

export type Store = 'global' | 'realm';
export type { MigrationScript };

const TABLE = '_gatehouse_migrations';
// A process that finds another one migrating should wait for it rather than fail.
const SQLITE_MIGRATION_BUSY_TIMEOUT_MS = 60_000;

export function storeMigrations(store: Store, d: Dialect): readonly MigrationScript[] {
  return migrations[store][d];
}

/** Applies pending migrations to an open SQLite database; returns the ids applied. */
export function migrateSqlite(db: Database.Database, list: readonly MigrationScript[]): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS "${TABLE}" ("id" TEXT NOT NULL PRIMARY KEY, "applied_at" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))`);
  const known = new Set(db.prepare(`SELECT "id" FROM "${TABLE}"`).pluck().all() as string[]);
  const applied: string[] = [];
  for (const m of list) {
    if (known.has(m.id)) continue;
    // Table-redefinition migrations (copy, drop, rename) must run with foreign keys off, or the
    // DROP TABLE cascades into child rows; the pragma is ignored inside a transaction, so it is
    // switched around it, and foreign_key_check verifies the result before COMMIT.
    db.pragma('foreign_keys = OFF');
    try {
      // IMMEDIATE takes the write lock up front (waiting up to busy_timeout), so the re-check
      // below sees what a racing process committed.
      db.exec('BEGIN IMMEDIATE');
      try {
        if (!db.prepare(`SELECT 1 FROM "${TABLE}" WHERE "id" = ?`).get(m.id)) {
          db.exec(m.sql);
          const violations = db.pragma('foreign_key_check') as unknown[];
          if (violations.length > 0) throw new Error(`Migration ${m.id} leaves ${violations.length} foreign key violation(s)`);
          db.prepare(`INSERT INTO "${TABLE}" ("id") VALUES (?)`).run(m.id);
          applied.push(m.id);
        }
        db.exec('COMMIT');
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw err;
      }
    } finally {
      db.pragma('foreign_keys = ON');
    }
  }
  return applied;
}

function isUndefinedTable(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '42P01';
}

/** Applies pending migrations through a connected pg client; returns the ids applied. */
export async function migratePostgres(client: pg.ClientBase, list: readonly MigrationScript[]): Promise<string[]> {
  // Fast path without locking: the common case (nothing to do) costs one query.
  let known = new Set<string>();
  try {
    const { rows } = await client.query<{ id: string }>(`SELECT "id" FROM "${TABLE}"`);
    known = new Set(rows.map((r) => r.id));
  } catch (err) {
    if (!isUndefinedTable(err)) throw err;
  }
  const applied: string[] = [];
  for (const m of list) {
    if (known.has(m.id)) continue;
    await client.query('BEGIN');
    try {
      // Transaction-scoped and per database: released at COMMIT/ROLLBACK, realms never contend.
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('gatehouse.migrations'))`);
      await client.query(`CREATE TABLE IF NOT EXISTS "${TABLE}" ("id" TEXT PRIMARY KEY, "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now())`);
      const done = await client.query(`SELECT 1 FROM "${TABLE}" WHERE "id" = $1`, [m.id]);
      if (done.rowCount === 0) {
        await client.query(m.sql);
        await client.query(`INSERT INTO "${TABLE}" ("id") VALUES ($1)`, [m.id]);
        applied.push(m.id);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  }
  return applied;
}

/** Opens the SQLite file, migrates it and closes it. `create: false` refuses a missing file. */
export function migrateSqliteFile(file: string, store: Store, options: { create: boolean }): string[] {
  const db = new Database(file, { fileMustExist: !options.create, timeout: SQLITE_MIGRATION_BUSY_TIMEOUT_MS });
  try {
    configureSqlite(db, SQLITE_MIGRATION_BUSY_TIMEOUT_MS);
    return migrateSqlite(db, storeMigrations(store, 'sqlite'));
  } finally {
    db.close();
  }
}

/** A short-lived raw client, always with an 'error' listener (an unhandled one kills the process). */
export async function withPgClient<T>(connectionString: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  client.on('error', (err) => logError('postgres connection error', err));
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export function migratePostgresUrl(connectionString: string, store: Store): Promise<string[]> {
  return withPgClient(connectionString, (client) => migratePostgres(client, storeMigrations(store, 'postgresql')));
}

/** Migrates the global store, creating the data directory and SQLite file when needed. */
export async function migrateGlobalStore(): Promise<string[]> {
  if (dialect() === 'postgresql') return migratePostgresUrl(globalPostgresUrl(), 'global');
  mkdirPrivate(settings().dataDir);
  const applied = migrateSqliteFile(globalSqlitePath(), 'global', { create: true });
  // 0700/0600 for the store, also when an older version created it more open (private-files.ts).
  tightenDataDir(settings().dataDir);
  return applied;
}

/** Migrates an existing realm database (it is never created here: see realm-databases.ts). */
export async function migrateRealmDatabase(name: string): Promise<string[]> {
  if (dialect() === 'postgresql') return migratePostgresUrl(realmPostgresUrl(name), 'realm');
  return migrateSqliteFile(realmSqlitePath(name), 'realm', { create: false });
}

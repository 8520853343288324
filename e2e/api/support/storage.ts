import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { randomSuffix } from './server-process';
import type { Engine, Storage } from './types';

// Fresh storage for a test server, and direct reads of it so tests can check what the API cannot
// show (a leftover reservation, a tenant database that should be gone).

/** Maintenance connection of the PostgreSQL server the tests use (trust auth on 127.0.0.1). */
export function pgAdminUrl(): string {
  return process.env.GATEHOUSE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export function engineFromEnv(): Engine {
  const v = (process.env.GATEHOUSE_TEST_DB ?? 'sqlite').toLowerCase();
  if (v === 'postgres' || v === 'postgresql' || v === 'pg') return 'postgres';
  if (v === 'sqlite') return 'sqlite';
  throw new Error(`GATEHOUSE_TEST_DB must be "sqlite" or "postgres", not ${JSON.stringify(v)}`);
}

export async function withPg<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function urlFor(database: string, user: string): string {
  const u = new URL(pgAdminUrl());
  u.username = user;
  u.password = '';
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * A new, empty store: a data directory, plus for PostgreSQL a role and a global database both named
 * `gh_test_<time>_<random>`. The server connects as that role (LOGIN CREATEDB, as a production
 * deployment would), so every database it creates is owned by it: tests can tell this run's realm
 * databases from those of other runs on the same server, and teardown finds all of them.
 */
export async function createStorage(engine: Engine, parentDir: string, label: string): Promise<Storage> {
  const dataDir = join(parentDir, `data-${label}-${randomSuffix(3)}`);
  mkdirSync(dataDir, { recursive: true });
  if (engine === 'sqlite') return { engine, dataDir };
  // The creation time is part of the name, so a later run can sweep what a killed run left behind.
  const name = `gh_test_${Math.floor(Date.now() / 1000).toString(36)}_${randomSuffix(5)}`;
  try {
    await withPg(pgAdminUrl(), async (c) => {
      await c.query(`CREATE ROLE "${name}" LOGIN CREATEDB`);
      await c.query(`CREATE DATABASE "${name}" OWNER "${name}"`);
    });
  } catch (e) {
    throw new Error(`cannot create the PostgreSQL test role and database at ${pgAdminUrl()} (is PostgreSQL running?): ${(e as Error).message}`, { cause: e });
  }
  return { engine, dataDir, databaseName: name, role: name, databaseUrl: urlFor(name, name) };
}

/**
 * Writes an encryption key into the global store as an older version (or a development server that
 * generated one) did; the store's schema must exist (`gatehouse migrate`). The CLI never writes one.
 */
export async function putStoredPlatformKey(storage: Storage, key: string): Promise<void> {
  const sql = 'INSERT INTO "PlatformSecret" ("id", "value") VALUES (\'encryption-key-v1\', $1)';
  if (storage.engine === 'postgres') {
    await withPg(storage.databaseUrl!, (c) => c.query(sql, [key]));
    return;
  }
  const db = new Database(join(storage.dataDir, 'global.db'), { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(sql.replace('$1', '?')).run(key);
  } finally {
    db.close();
  }
}

export type GlobalRealmRow = { id: string; slug: string; databaseName: string; isProvisioned: boolean; isActive: boolean; isControlPlane: boolean };

/** Every row of the global Realm table, provisioned or not. */
export async function globalRealmRows(storage: Storage): Promise<GlobalRealmRow[]> {
  const sql = 'SELECT "id", "slug", "databaseName", "isProvisioned", "isActive", "isControlPlane" FROM "Realm"';
  if (storage.engine === 'postgres') {
    return withPg(storage.databaseUrl!, async (c) => (await c.query<GlobalRealmRow>(sql)).rows);
  }
  const file = join(storage.dataDir, 'global.db');
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const rows = db.prepare(sql).all() as Array<Omit<GlobalRealmRow, 'isProvisioned' | 'isActive' | 'isControlPlane'> & Record<string, unknown>>;
    return rows.map((r) => ({ ...r, isProvisioned: Boolean(r.isProvisioned), isActive: Boolean(r.isActive), isControlPlane: Boolean(r.isControlPlane) }));
  } finally {
    db.close();
  }
}

/**
 * Names of the realm databases that physically exist: SQLite files under `<data>/realms`, or on
 * PostgreSQL the `gh_r_*` databases owned by this store's role.
 */
export async function existingRealmDatabases(storage: Storage): Promise<string[]> {
  if (storage.engine === 'postgres') {
    const sql = "SELECT d.datname FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba WHERE r.rolname = $1 AND d.datname LIKE 'gh\\_r\\_%'";
    return withPg(pgAdminUrl(), async (c) => (await c.query<{ datname: string }>(sql, [storage.role])).rows.map((r) => r.datname));
  }
  const dir = join(storage.dataDir, 'realms');
  if (!existsSync(dir)) return [];
  // Only the database files: -wal/-shm companions come and go as servers open and close a database.
  return readdirSync(dir)
    .filter((f) => f.endsWith('.db'))
    .map((f) => f.slice(0, -3));
}

export async function realmDatabaseExists(storage: Storage, databaseName: string): Promise<boolean> {
  if (storage.engine === 'postgres') {
    return withPg(pgAdminUrl(), async (c) => ((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName])).rowCount ?? 0) > 0);
  }
  return existsSync(join(storage.dataDir, 'realms', `${databaseName}.db`));
}

const IDENT = /^[a-z0-9_]{1,63}$/;

/**
 * Drops every database of the store (those its global Realm table lists and any other its role
 * owns, such as the leftovers of a failed create), then the global database and the role, then
 * the files.
 */
export async function destroyStorage(storage: Storage): Promise<void> {
  if (storage.engine === 'postgres' && storage.databaseName) {
    let names: string[] = [];
    try {
      names = (await globalRealmRows(storage)).map((r) => r.databaseName);
    } catch {
      names = [];
    }
    await withPg(pgAdminUrl(), async (c) => {
      if (storage.role) {
        const owned = await c.query<{ datname: string }>('SELECT d.datname FROM pg_database d JOIN pg_roles r ON r.oid = d.datdba WHERE r.rolname = $1', [
          storage.role,
        ]);
        names.push(...owned.rows.map((r) => r.datname).filter((n) => n !== storage.databaseName));
      }
      for (const name of new Set(names)) {
        if (IDENT.test(name)) await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      }
      await c.query(`ALTER DATABASE "${storage.databaseName}" ALLOW_CONNECTIONS true`).catch(() => undefined);
      await c.query(`DROP DATABASE IF EXISTS "${storage.databaseName}" WITH (FORCE)`);
      if (storage.role && IDENT.test(storage.role)) await c.query(`DROP ROLE IF EXISTS "${storage.role}"`);
    });
  }
  rmSync(storage.dataDir, { recursive: true, force: true });
}

/**
 * Drops the stores of test runs that were killed before their teardown: `gh_test_<time>_*`
 * databases older than `olderThanMs` that nobody is connected to, with their realm databases and
 * role, and roles of that shape left without a database.
 */
export async function sweepAbandonedPgStorage(olderThanMs = 6 * 3600 * 1000): Promise<string[]> {
  const swept: string[] = [];
  const shape = /^gh_test_([0-9a-z]{6,7})_[0-9a-f]{10}$/; // exactly what createStorage makes
  const abandoned = (name: string) => {
    const m = shape.exec(name);
    if (!m) return false;
    const createdMs = parseInt(m[1], 36) * 1000;
    return createdMs >= Date.UTC(2024, 0, 1) && createdMs <= Date.now() && Date.now() - createdMs >= olderThanMs;
  };
  const { databases, roles } = await withPg(pgAdminUrl(), async (c) => ({
    databases: (
      await c.query<{ datname: string; sessions: string }>(
        "SELECT d.datname, (SELECT count(*) FROM pg_stat_activity a WHERE a.datname = d.datname) AS sessions FROM pg_database d WHERE d.datname LIKE 'gh\\_test\\_%'",
      )
    ).rows,
    roles: (await c.query<{ rolname: string }>("SELECT rolname FROM pg_roles WHERE rolname LIKE 'gh\\_test\\_%'")).rows.map((r) => r.rolname),
  }));
  for (const { datname, sessions } of databases) {
    if (!abandoned(datname) || Number(sessions) > 0) continue;
    const role = roles.includes(datname) ? datname : undefined;
    await destroyStorage({
      engine: 'postgres',
      dataDir: join(tmpdir(), `gatehouse-swept-${datname}`),
      databaseName: datname,
      role,
      databaseUrl: urlFor(datname, role ?? 'postgres'),
    }).catch(() => undefined);
    swept.push(datname);
  }
  const remaining = new Set(databases.map((d) => d.datname));
  for (const role of roles.filter((r) => abandoned(r) && !remaining.has(r))) {
    await withPg(pgAdminUrl(), (c) => c.query(`DROP ROLE IF EXISTS "${role}"`)).catch(() => undefined);
  }
  return swept;
}

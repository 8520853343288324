import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { suite } from './harness';
import { globalRealmRows, pgAdminUrl, withPg } from './storage';

// Direct writes to a realm's database (or the global store), for what the API cannot do on purpose:
// age a one-time secret past its expiry, flip a flag another feature owns, route a host to an App.
// SQL is written with PostgreSQL's $1 placeholders and quoted identifiers; for SQLite they become ?
// and booleans 1/0.

async function databaseOf(slug: string): Promise<string> {
  const row = (await globalRealmRows(suite().storage)).find((r) => r.slug === slug);
  if (!row) throw new Error(`no realm ${slug} in the global store`);
  return row.databaseName;
}

export async function realmSql<T = Record<string, unknown>>(slug: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const storage = suite().storage;
  const database = await databaseOf(slug);
  if (storage.engine === 'postgres') {
    const u = new URL(pgAdminUrl());
    u.pathname = `/${database}`;
    return withPg(u.toString(), async (c) => (await c.query(sql, params)).rows as T[]);
  }
  return sqliteQuery<T>(join(storage.dataDir, 'realms', `${database}.db`), sql, params);
}

/**
 * The same for the global store (realm records, host-to-App routing). The server caches realm
 * records per host: a change made here shows once something invalidates them (a realm PATCH).
 */
export async function globalSql<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  const storage = suite().storage;
  if (storage.engine === 'postgres') return withPg(storage.databaseUrl!, async (c) => (await c.query(sql, params)).rows as T[]);
  return sqliteQuery<T>(join(storage.dataDir, 'global.db'), sql, params);
}

function sqliteQuery<T>(file: string, sql: string, params: unknown[]): T[] {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const stmt = db.prepare(sql.replace(/\$\d+/g, '?'));
    const values = params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
    return stmt.reader ? (stmt.all(...values) as T[]) : (stmt.run(...values), []);
  } finally {
    db.close();
  }
}

/** The key under which the OAuth engine's storage keeps a token, code or id (lib/oidc/payload-codec.ts). */
export function engineKey(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

import { join } from 'node:path';
import { settings } from '../config/env';

// Which database engine this process uses, and where each store's database lives. SQLite is the
// default (files under the data directory); DATABASE_URL switches to PostgreSQL, where the global
// store is that database and every realm gets its own database on the same server (spec 1).
export type Dialect = 'sqlite' | 'postgresql';

export function dialect(): Dialect {
  return settings().databaseUrl ? 'postgresql' : 'sqlite';
}

// Database names end up in SQL identifiers and file paths: one strict shape keeps both safe
// (PostgreSQL identifiers are at most 63 bytes).
const DATABASE_NAME = /^[a-z0-9_]{1,63}$/;

export function assertDatabaseName(name: string): void {
  if (!DATABASE_NAME.test(name)) throw new Error(`Invalid database name: ${JSON.stringify(name)}`);
}

export function globalSqlitePath(): string {
  return join(settings().dataDir, 'global.db');
}

export function realmsSqliteDir(): string {
  return join(settings().dataDir, 'realms');
}

export function realmSqlitePath(name: string): string {
  assertDatabaseName(name);
  return join(realmsSqliteDir(), `${name}.db`);
}

function databaseUrl(): string {
  const url = settings().databaseUrl;
  if (!url) throw new Error('DATABASE_URL is not set: PostgreSQL is not in use');
  return url;
}

/** The global store's PostgreSQL URL (DATABASE_URL itself). */
export function globalPostgresUrl(): string {
  return databaseUrl();
}

/** A realm database's URL: DATABASE_URL with the database name swapped (same server, options). */
export function realmPostgresUrl(name: string): string {
  assertDatabaseName(name);
  const url = new URL(databaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Interactive-transaction limits for every client. Prisma's defaults (2 s to get a connection, 5 s
 * in all) are too short here: writes that change who holds what queue on one lock per realm
 * (domain/groups/grant-change-guard.ts) over a realm pool of two connections, so a burst of admin
 * writes in one realm waits its turn instead of failing with a 500.
 */
export const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 30_000 } as const;

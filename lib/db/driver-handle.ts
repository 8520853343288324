import type BetterSqlite3 from 'better-sqlite3';
import type { Pool } from 'pg';
import { shared } from '../runtime/shared';
import { withStatementCache } from './sqlite-statement-cache';
import { markTransactionCallers, trackTransactions } from './sqlite-transaction-gate';
import { BACKSTOP_AUTOCHECKPOINT_PAGES, unwatchWal, startWalCheckpoints, watchWal } from './wal-checkpoints';

// The driver under a Prisma client (the better-sqlite3 database or the pg pool its adapter opened),
// for the few statements too hot for Prisma's query interpreter (lib/db/oidc-payload-sql.ts: the
// OAuth engine's storage, several statements on every token request). Captured when Prisma
// connects the adapter; the adapter keeps the driver as its `client`. A SQLite adapter is given the
// database with its statements kept (sqlite-statement-cache.ts) in place of the bare one, and its
// WAL checkpoints are left to a worker thread (wal-checkpoints.ts) until the adapter disposes of it.

export type DriverHandle = { kind: 'sqlite'; db: BetterSqlite3.Database } | { kind: 'postgresql'; pool: Pool };

// On globalThis: server.ts and Next's bundles each have their own copy of this module, and a client
// opened by one is used by the other (lib/runtime/shared.ts).
const handles = () => shared('db.driver-handles', () => new WeakMap<object, DriverHandle>());

type AdapterFactory = { connect(): Promise<unknown> };
type ConnectedAdapter = { client?: unknown; dispose?: () => Promise<void> } & Parameters<typeof trackTransactions>[0];

function checkpointOffLoop(adapter: ConnectedAdapter, db: BetterSqlite3.Database): void {
  if (db.memory || !adapter.dispose || !startWalCheckpoints()) return;
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  watchWal(db.name);
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    try {
      await dispose();
    } finally {
      await unwatchWal(db.name);
    }
  };
}

/**
 * Wraps an adapter factory so that the driver it connects is recorded for `client` (the Prisma
 * client built on the factory), and a SQLite adapter reuses its prepared statements. Returns the
 * same factory.
 */
export function captureDriver<F extends AdapterFactory>(factory: F, kind: DriverHandle['kind'], client: () => object): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = (await connect()) as ConnectedAdapter;
    const driver = adapter.client;
    if (!driver) return adapter;
    if (kind === 'sqlite') {
      const db = driver as BetterSqlite3.Database;
      handles().set(client(), { kind, db });
      adapter.client = withStatementCache(db);
      checkpointOffLoop(adapter, db);
      // Gatehouse's own statements wait while another request's transaction holds the connection.
      trackTransactions(adapter, db);
      markTransactionCallers(client());
    } else handles().set(client(), { kind, pool: driver as Pool });
    return adapter;
  };
  return factory;
}

/** The driver of a connected client, or undefined (not connected yet, or not built by the pools). */
export function driverOf(client: object): DriverHandle | undefined {
  return handles().get(client);
}

const statements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/** A prepared statement of a SQLite database, prepared once per database and kept with it. */
export function sqliteStatement(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}

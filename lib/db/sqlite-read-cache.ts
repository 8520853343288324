import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { shared } from '../runtime/shared';

// Hot rows of a realm's SQLite database, kept in memory and answered again only while no write can
// have changed them (issue 14: a userinfo answer read the access token, its grant and the user, and
// those reads took about a tenth of its time). Exact, not a time-to-live:
// - A write on the same connection (the engine's adapter, Prisma, any statement) fires a temporary
//   trigger of that connection on the row's table, which evicts the row's key before the statement
//   returns; INSERT too, since INSERT OR REPLACE deletes without firing DELETE triggers.
// - A commit by any other connection (another process sharing the file, the CLI, a migration)
//   changes `PRAGMA data_version`; when it moved, nothing read before counts any more. It is read
//   before a cached answer, unless the connection was checked after the reading request arrived:
//   the state at that check is then a state inside the request's own span, as a read made at that
//   moment would answer, whichever request made it. A check costs about what a small SELECT costs
//   (the lock calls of a read transaction: two system calls); the engine's requests that one poll
//   brought in wait for each other before they read (dispatch.ts, runtime/turn-barrier.ts), so under
//   load the first one's check serves them all (about eight per check in the OAuth bench).
// - Inside a transaction nothing is answered or kept: its reads may see writes that never commit.
// PostgreSQL is never cached: several instances write it, and no check as cheap as data_version
// tells one of another's commit, so revocation stays exact there by reading every time.

export type CachedTable = 'OidcPayload' | 'User';

/**
 * When a request arrived, on the cache's check clock (`readPointNow()`): a check made after it
 * serves the request's reads. Without one, every read checks.
 */
export type ReadPoint = { readonly arrivedAt: number };

// A row that is not there is kept as well (a token looked up by the wrong kind first, every time).
const ABSENT = Object.freeze({});

/** The columns that make a row's key, in order: the trigger passes them, the reader names them. */
const KEY_COLUMNS: Record<CachedTable, readonly string[]> = { OidcPayload: ['model', 'id'], User: ['id'] };

const EVICT_FUNCTION = 'gh_read_cache_evict';
const KEY_SEPARATOR = '\u0000';

type Connection = {
  id: number;
  /** Entries made under an older generation are stale: another connection committed since. */
  generation: number;
  dataVersion: number;
  schemaVersion: number;
  tables: Set<CachedTable>;
  /** The check clock's value at the last check: requests that arrived before it need no other. */
  checkedAt: number;
  readDataVersion: BetterSqlite3.Statement;
  readSchemaVersion: BetterSqlite3.Statement;
};

type Entry = { connection: Connection; generation: number; value: object; size: number };

type State = {
  connections: WeakMap<BetterSqlite3.Database, Connection>;
  entries: LRUCache<string, Entry>;
  nextId: number;
  /** Counts the checks of every connection: a request that arrived at `n` is served by any check after. */
  checks: number;
};

// Bounded for the whole process, across every open realm: 1,000 realms must stay under 1 GiB.
const READ_CACHE_MAX_BYTES = 16 * 1024 * 1024;

const state = () =>
  shared<State>('db.sqlite-read-cache', () => ({
    connections: new WeakMap(),
    entries: new LRUCache<string, Entry>({ maxSize: READ_CACHE_MAX_BYTES, sizeCalculation: (e) => e.size }),
    nextId: 1,
    checks: 0,
  }));

/** The read point of a request arriving now. */
export function readPointNow(): ReadPoint {
  return { arrivedAt: state().checks };
}

const entryKey = (connection: Connection, table: CachedTable, key: readonly unknown[]) =>
  `${connection.id}${KEY_SEPARATOR}${table}${KEY_SEPARATOR}${key.join(KEY_SEPARATOR)}`;

function installTriggers(db: BetterSqlite3.Database, table: CachedTable): void {
  const columns = (row: 'old' | 'new') => KEY_COLUMNS[table].map((c) => `${row}."${c}"`).join(', ');
  for (const [event, row] of [
    ['INSERT', 'new'],
    ['UPDATE', 'old'],
    ['DELETE', 'old'],
  ] as const) {
    db.exec(
      `CREATE TEMP TRIGGER IF NOT EXISTS "gh_read_cache_${table}_${event.toLowerCase()}" AFTER ${event} ON main."${table}" ` +
        `BEGIN SELECT ${EVICT_FUNCTION}('${table}', ${columns(row)}); END`,
    );
  }
  // An UPDATE that sets the key columns themselves evicts the new key too (only such an UPDATE: each
  // trigger is a call into JavaScript, and the hot writes change other columns).
  db.exec(
    `CREATE TEMP TRIGGER IF NOT EXISTS "gh_read_cache_${table}_update_key" AFTER UPDATE OF ${KEY_COLUMNS[table].map((c) => `"${c}"`).join(', ')} ON main."${table}" ` +
      `BEGIN SELECT ${EVICT_FUNCTION}('${table}', ${columns('new')}); END`,
  );
}

function connectionOf(db: BetterSqlite3.Database): Connection {
  const s = state();
  let connection = s.connections.get(db);
  if (connection) return connection;
  const created: Connection = {
    id: s.nextId++,
    generation: 0,
    dataVersion: -1,
    schemaVersion: -1,
    tables: new Set(),
    checkedAt: 0,
    readDataVersion: db.prepare('PRAGMA data_version').pluck(),
    readSchemaVersion: db.prepare('PRAGMA schema_version').pluck(),
  };
  db.function(EVICT_FUNCTION, { varargs: true, deterministic: false }, (table: unknown, ...key: unknown[]) => {
    s.entries.delete(entryKey(created, table as CachedTable, key));
    return null;
  });
  s.connections.set(db, (connection = created));
  return connection;
}

/** Whether entries of this connection may still be answered; moves to a new generation when not. */
function refresh(db: BetterSqlite3.Database, connection: Connection, table: CachedTable, point: ReadPoint | undefined): void {
  if (point !== undefined && connection.checkedAt > point.arrivedAt && connection.tables.has(table)) return;
  connection.checkedAt = ++state().checks;
  const dataVersion = connection.readDataVersion.get() as number;
  if (dataVersion === connection.dataVersion && connection.tables.has(table)) return;
  connection.dataVersion = dataVersion;
  connection.generation++;
  // Another connection may have dropped and made the table again, and its temporary triggers with it
  // (the connections this cache serves make no schema changes themselves: migrations have their own).
  const schemaVersion = connection.readSchemaVersion.get() as number;
  if (schemaVersion !== connection.schemaVersion) {
    connection.schemaVersion = schemaVersion;
    connection.tables.clear();
  }
  if (!connection.tables.has(table)) {
    installTriggers(db, table);
    connection.tables.add(table);
  }
}

/**
 * The row of `table` whose key columns hold `key` (in KEY_COLUMNS' order), or null: the kept answer
 * when no write since could have changed it, else `read()`'s, kept for the next call. Runs on the
 * connection at once: call it where the statement itself would run (inside runWhenFree). The value
 * is shared by every caller: it is frozen, and must hold no object a caller would change.
 */
export function readThrough<T extends object>(
  db: BetterSqlite3.Database,
  table: CachedTable,
  key: readonly string[],
  size: (value: T) => number,
  read: () => T | null,
  point?: ReadPoint,
): T | null {
  if (db.inTransaction) return read();
  const connection = connectionOf(db);
  refresh(db, connection, table, point);
  const k = entryKey(connection, table, key);
  const entries = state().entries;
  const kept = entries.get(k);
  if (kept && kept.connection === connection && kept.generation === connection.generation) return kept.value === ABSENT ? null : (kept.value as T);
  const value = read();
  const bytes = (value === null ? 0 : size(value)) + 2 * k.length + 64;
  entries.set(k, { connection, generation: connection.generation, value: value === null ? ABSENT : Object.freeze(value), size: bytes });
  return value;
}

/** Forgets every kept row (tests). */
export function clearReadCache(): void {
  state().entries.clear();
}

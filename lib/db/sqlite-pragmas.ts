import type Database from 'better-sqlite3';

// The settings of every Gatehouse SQLite connection, whether a raw driver (migrations) or a Prisma
// client (the global store, each realm). WAL is stored in the file; the rest is per connection.
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

const PER_CONNECTION = [
  // The schemas' cascades depend on it.
  'foreign_keys = ON',
  // In WAL mode NORMAL is still crash-safe (no corruption); a power loss may drop the last
  // commits. It spares an fsync per commit, which roughly doubles sign-ins per second here.
  'synchronous = NORMAL',
];

/** A raw connection: waits for a busy writer, turns WAL on (readers never block the writer), then the per-connection settings. */
export function configureSqlite(db: Database.Database, busyTimeoutMs = SQLITE_BUSY_TIMEOUT_MS): void {
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('journal_mode = WAL');
  for (const pragma of PER_CONNECTION) db.pragma(pragma);
}

/** A Prisma client's connection (its adapter sets the busy timeout; the migration step set WAL). */
async function configureSqliteClient(db: { $executeRawUnsafe(sql: string): Promise<number> }): Promise<void> {
  for (const pragma of PER_CONNECTION) await db.$executeRawUnsafe(`PRAGMA ${pragma}`);
}

type Client = { $connect(): Promise<void>; $disconnect(): Promise<void>; $executeRawUnsafe(sql: string): Promise<number> };

/** Connects a new Prisma client, with the per-connection settings on SQLite; one that fails is disconnected again. */
export async function connectClient<C extends Client>(db: C, sqlite: boolean): Promise<C> {
  try {
    await db.$connect();
    if (sqlite) await configureSqliteClient(db);
  } catch (err) {
    await db.$disconnect().catch(() => {});
    throw err;
  }
  return db;
}

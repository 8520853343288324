import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { LRUCache } from 'lru-cache';
import { settings } from '../config/env';
import { logError } from '../log/logger';
import { captureDriver } from './driver-handle';
import { cachedPromise, rememberFulfilled, settledValue } from '../runtime/cached-promise';
import { dropShared, shared } from '../runtime/shared';
import { dialect, realmPostgresUrl, realmSqlitePath, TRANSACTION_OPTIONS } from './dialect';
import { PrismaClient as RealmPgClient } from './generated/realm-postgresql/client';
import { PrismaClient as RealmSqliteClient } from './generated/realm-sqlite/client';
import { migrateRealmDatabase } from './migrate';
import { connectClient, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-pragmas';
import type { RealmDb } from './types';

// One Prisma client per realm database, opened on demand and kept in an LRU: a fleet of realms
// cannot all stay open (PostgreSQL allows 100 connections by default; an open SQLite realm costs
// 1.5-2.7 MiB with its statements and its query compiler), so idle realms are evicted and
// disconnected (docs/environment.md "Prisma 7"). Opening one costs about 11 ms of CPU, so the LRU
// must hold every realm that is busy at once: a busy realm pushed out by others reopens on nearly
// every request (150 busy realms over an LRU of 100 served /api/account/me at a fifth of the rate).
//
// Sizing, PostgreSQL: each open realm holds at most PG_POOL_MAX connections, released after
// PG_IDLE_MS without use, so the worst case is GATEHOUSE_REALM_POOL_MAX x PG_POOL_MAX busy realms
// plus the global pool (40 x 2 + 10 by default). Keep that under max_connections, or put PgBouncer in front for large fleets.
//
// Callers should fetch the handle per request (getRealmDb is a cache hit) rather than keep it:
// an evicted client is disconnected.

const PG_POOL_MAX = 2;
const PG_IDLE_MS = 10_000;
const KEY = 'db.realm-pool';

type PoolState = {
  cache: LRUCache<string, Promise<RealmDb>>;
  /** Disconnects under way, so closing can wait for them. */
  closing: Set<Promise<void>>;
  /** Databases migrated by this process: a realm is upgraded on its first open, not at start-up. */
  migrated: Set<string>;
};

function createState(): PoolState {
  const closing = new Set<Promise<void>>();
  const cache = new LRUCache<string, Promise<RealmDb>>({
    // PostgreSQL: 40 realms x 2 connections + the global pool's 10 stays under the default
    // max_connections of 100 whatever the realm count; SQLite clients cost only memory (200 of
    // them about 400 MiB at most).
    max: settings().realmPoolMax ?? (dialect() === 'postgresql' ? 40 : 200),
    ttl: settings().realmPoolIdleMs ?? 60_000,
    updateAgeOnGet: true,
    ttlAutopurge: true, // evict idle realms on a timer, not only when the cache is next touched
    dispose: (opening, name) => {
      const done: Promise<void> = opening
        .then(
          (db) => db.$disconnect(),
          () => undefined,
        ) // a failed open has nothing to close
        .catch((err: unknown) => logError('realm database disconnect failed', err, { database: name }))
        .finally(() => closing.delete(done));
      closing.add(done);
    },
  });
  return { cache, closing, migrated: new Set() };
}

const state = (): PoolState => shared(KEY, createState);

function createClient(name: string): RealmDb {
  if (dialect() === 'postgresql') {
    let client: RealmDb | null = null;
    const adapter = captureDriver(
      new PrismaPg(
        { connectionString: realmPostgresUrl(name), max: PG_POOL_MAX, idleTimeoutMillis: PG_IDLE_MS },
        {
          onPoolError: (err) => logError('realm pool error', err, { database: name }),
          onConnectionError: (err) => logError('realm connection error', err, { database: name }),
        },
      ),
      'postgresql',
      () => client!,
    );
    client = new RealmPgClient({ adapter, transactionOptions: TRANSACTION_OPTIONS }) as unknown as RealmDb;
    return client;
  }
  // fileMustExist: a client used after its realm was dropped fails instead of recreating the file.
  let client: RealmDb | null = null;
  const adapter = captureDriver(
    new PrismaBetterSqlite3({ url: `file:${realmSqlitePath(name)}`, timeout: SQLITE_BUSY_TIMEOUT_MS, fileMustExist: true }),
    'sqlite',
    () => client!,
  );
  client = new RealmSqliteClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  return client;
}

async function open(name: string, s: PoolState): Promise<RealmDb> {
  if (!s.migrated.has(name)) {
    await migrateRealmDatabase(name); // also proves the database exists
    s.migrated.add(name);
  }
  return connectClient(createClient(name), dialect() === 'sqlite');
}

/**
 * The client of a realm database (its `databaseName`), opened and migrated on first use. Not async:
 * the cached promise itself is handed out, so awaiting an open realm costs no extra turns.
 */
export function getRealmDb(databaseName: string): Promise<RealmDb> {
  const s = state();
  return rememberFulfilled(cachedPromise(s.cache, databaseName, () => open(databaseName, s)));
}

/** The client of a realm database that is open already, at once (a hot path's way to skip a turn); else undefined. */
export function openRealmDb(databaseName: string): RealmDb | undefined {
  return settledValue(state().cache.get(databaseName));
}

/**
 * Runs `work` on a realm's database without keeping it open: on the pooled client when the realm is
 * open, else on a short-lived client outside the pool, so a sweep over every realm (the purge job)
 * neither pushes the realms in use out of the LRU nor holds more than one extra client.
 */
export async function withRealmDb<T>(databaseName: string, work: (db: RealmDb) => Promise<T>): Promise<T> {
  const s = state();
  const pooled = s.cache.peek(databaseName); // peek: a sweep must not make a realm look recently used
  if (pooled) return work(await pooled);
  const db = await open(databaseName, s);
  try {
    return await work(db);
  } finally {
    await db.$disconnect().catch((err: unknown) => logError('realm database disconnect failed', err, { database: databaseName }));
  }
}

/** Closes a realm's client if open (before dropping or replacing its database). */
export async function evictRealmDb(databaseName: string): Promise<void> {
  const s = state();
  s.cache.delete(databaseName);
  s.migrated.delete(databaseName);
  await Promise.all([...s.closing]);
}

/** Closes every realm client (shutdown, tests); the next getRealmDb starts a fresh pool. */
export async function closeAllRealmDbs(): Promise<void> {
  const s = state();
  dropShared(KEY);
  s.cache.clear();
  await Promise.all([...s.closing]);
}

export function openRealmDbCount(): number {
  return state().cache.size;
}

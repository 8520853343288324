import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { logError } from '../log/logger';
import { dropSharedPromise, sharedPromise } from '../runtime/cached-promise';
import { captureDriver } from './driver-handle';
import { dialect, globalPostgresUrl, globalSqlitePath, TRANSACTION_OPTIONS } from './dialect';
import { PrismaClient as GlobalPgClient } from './generated/global-postgresql/client';
import { PrismaClient as GlobalSqliteClient } from './generated/global-sqlite/client';
import { migrateGlobalStore } from './migrate';
import { connectClient, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-pragmas';
import type { GlobalDb } from './types';

// The global store (realm records, platform audit): one client per process, shared by server.ts
// and Next's bundles through globalThis (docs/environment.md). The store is migrated on first use, so
// a fresh install needs no separate step.

const POOL_MAX = 10;
const KEY = 'db.global';

function createClient(): GlobalDb {
  if (dialect() === 'postgresql') {
    const adapter = new PrismaPg(
      { connectionString: globalPostgresUrl(), max: POOL_MAX, idleTimeoutMillis: 30_000 },
      {
        onPoolError: (err) => logError('global store pool error', err),
        onConnectionError: (err) => logError('global store connection error', err),
      },
    );
    return new GlobalPgClient({ adapter, transactionOptions: TRANSACTION_OPTIONS }) as unknown as GlobalDb;
  }
  // fileMustExist: the migration step created it; a client must never conjure an empty store.
  let client: GlobalDb | null = null;
  const adapter = captureDriver(
    new PrismaBetterSqlite3({ url: `file:${globalSqlitePath()}`, timeout: SQLITE_BUSY_TIMEOUT_MS, fileMustExist: true }),
    'sqlite',
    () => client!,
  );
  client = new GlobalSqliteClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  return client;
}

async function open(): Promise<GlobalDb> {
  await migrateGlobalStore();
  return connectClient(createClient(), dialect() === 'sqlite');
}

/** The global store's client; a failed open (database down at start-up) is retried by the next caller. */
export function getGlobalDb(): Promise<GlobalDb> {
  return sharedPromise(KEY, open);
}

/** For /health/ready: true when the global store answers within `timeoutMs`. */
export async function pingGlobalDb(timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const ping = (async () => {
    const db = await getGlobalDb();
    await db.$queryRawUnsafe('SELECT 1');
    return true;
  })();
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([ping, timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function closeGlobalDb(): Promise<void> {
  const db = await dropSharedPromise<GlobalDb>(KEY)?.catch(() => null);
  await db?.$disconnect();
}

import { driverOf, sqliteStatement } from '../../db/driver-handle';
import { runWhenFree } from '../../db/sqlite-transaction-gate';
import { pgTimestampText, sqliteBoolean, sqliteDateText } from '../../db/sql-values';
import type { RealmDb } from '../../db/types';

// A security-log entry (AuthLogEvent) is written for every sign-in, failed attempt and account
// change: one prepared INSERT on the realm's driver, for the reason lib/db/oidc-payload-sql.ts
// gives (Prisma's create also read the whole row back). Through Prisma when the driver is not known.

export type SecurityLogEntry = {
  id: string;
  createdAt: Date;
  category: string;
  eventType: string;
  success: boolean;
  userId: string | null;
  userName: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  detail: string | null;
};

const COLUMNS = ['id', 'createdAt', 'category', 'eventType', 'success', 'userId', 'userName', 'ipAddress', 'userAgent', 'detail'] as const;
const INSERT = `INSERT INTO "AuthLogEvent" (${COLUMNS.map((c) => `"${c}"`).join(', ')})`;
/** The INSERT of one entry on a realm's SQLite database. */
export const SQLITE_SECURITY_LOG_INSERT = `${INSERT} VALUES (${COLUMNS.map(() => '?').join(', ')})`;
const PG = { name: 'gh-security-log-insert', text: pgSecurityLogInsert(1) };

/** The entry's row in column order, as SQLite binds it. */
export function sqliteSecurityLogRow(entry: SecurityLogEntry): unknown[] {
  return COLUMNS.map((c) => (c === 'createdAt' ? sqliteDateText(entry.createdAt) : c === 'success' ? sqliteBoolean(entry.success) : entry[c]));
}

/** The PostgreSQL INSERT of one entry, its parameters numbered from `first` (so it can sit in a larger statement). */
export function pgSecurityLogInsert(first: number): string {
  return `${INSERT} VALUES (${COLUMNS.map((c, i) => `$${first + i}${c === 'createdAt' ? '::timestamp(3)' : ''}`).join(', ')})`;
}

/** The entry's row in column order, as PostgreSQL binds it. */
export function pgSecurityLogRow(entry: SecurityLogEntry): unknown[] {
  return COLUMNS.map((c) => (c === 'createdAt' ? pgTimestampText(entry.createdAt) : entry[c]));
}

export async function insertSecurityLogEntry(db: RealmDb, entry: SecurityLogEntry): Promise<void> {
  const driver = driverOf(db);
  if (driver?.kind === 'sqlite') {
    const values = sqliteSecurityLogRow(entry);
    await runWhenFree(driver.db, () => sqliteStatement(driver.db, SQLITE_SECURITY_LOG_INSERT).run(...values));
    return;
  }
  if (driver?.kind === 'postgresql') {
    await driver.pool.query({ ...PG, values: pgSecurityLogRow(entry) });
    return;
  }
  await db.authLogEvent.create({ data: entry, select: { id: true } });
}

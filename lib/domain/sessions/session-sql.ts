import { driverOf, sqliteStatement } from '../../db/driver-handle';
import { runWhenFree } from '../../db/sqlite-transaction-gate';
import { booleanValue, dateValue, epochMillis, pgTimestampText, sqliteDateText } from '../../db/sql-values';
import type { RealmDb } from '../../db/types';
import { pgSecurityLogInsert, pgSecurityLogRow, SQLITE_SECURITY_LOG_INSERT, sqliteSecurityLogRow, type SecurityLogEntry } from '../audit/security-log-sql';

// The session statements on the hot paths, as prepared statements on the realm's driver for the
// reason lib/db/oidc-payload-sql.ts gives, through Prisma when the driver is not known:
// - the browser session a cookie names, with the few facts of its user that decide whether it is
//   live (repo.ts): read on every request made with a session cookie, one statement joining the two
//   rows (Prisma reads the relation as a second query, each through its interpreter);
// - a new session with its user's last sign-in and the sign-in's security-log entry, written at
//   every sign-in in one transaction (one statement on PostgreSQL), where Prisma's nested write
//   made five statements and the log entry was a commit of its own.

export type SessionWithUser = {
  id: string;
  userId: string;
  amr: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  user: { userName: string; isActive: boolean; deletedAt: Date | null };
};

/** The same fields through Prisma (the fallback, and what the test compares the statement with). */
export const SESSION_WITH_USER_SELECT = {
  id: true,
  userId: true,
  amr: true,
  createdAt: true,
  lastSeenAt: true,
  expiresAt: true,
  revokedAt: true,
  user: { select: { userName: true, isActive: true, deletedAt: true } },
} as const;

const FROM = 'FROM "Session" s JOIN "User" u ON u."id" = s."userId"';
const SQLITE =
  'SELECT s."id", s."userId", s."amr", s."createdAt", s."lastSeenAt", s."expiresAt", s."revokedAt", ' +
  `u."userName", u."isActive", u."deletedAt" ${FROM} WHERE s."tokenHash" = ?`;
const PG = {
  name: 'gh-session-with-user',
  text:
    `SELECT s."id", s."userId", s."amr", ${['createdAt', 'lastSeenAt', 'expiresAt', 'revokedAt'].map((c) => epochMillis(c, 's')).join(', ')}, ` +
    `u."userName", u."isActive", ${epochMillis('deletedAt', 'u')} ${FROM} WHERE s."tokenHash" = $1`,
};

type Row = {
  id: string;
  userId: string;
  amr: string;
  createdAt: unknown;
  lastSeenAt: unknown;
  expiresAt: unknown;
  revokedAt: unknown;
  userName: string;
  isActive: unknown;
  deletedAt: unknown;
};

function fromRow(r: Row | undefined): SessionWithUser | null {
  if (!r) return null;
  return {
    id: r.id,
    userId: r.userId,
    amr: r.amr,
    createdAt: dateValue(r.createdAt)!,
    lastSeenAt: dateValue(r.lastSeenAt)!,
    expiresAt: dateValue(r.expiresAt)!,
    revokedAt: dateValue(r.revokedAt),
    user: { userName: r.userName, isActive: booleanValue(r.isActive), deletedAt: dateValue(r.deletedAt) },
  };
}

/** The session stored under `tokenHash` and its user's liveness facts, or null. */
export async function findSessionWithUser(db: RealmDb, tokenHash: string): Promise<SessionWithUser | null> {
  const driver = driverOf(db);
  if (driver?.kind === 'sqlite') return runWhenFree(driver.db, () => fromRow(sqliteStatement(driver.db, SQLITE).get(tokenHash) as Row | undefined));
  if (driver?.kind === 'postgresql') return fromRow((await driver.pool.query<Row>({ ...PG, values: [tokenHash] })).rows[0]);
  return db.session.findUnique({ where: { tokenHash }, select: SESSION_WITH_USER_SELECT });
}

/** A session row as it is first written. */
export type NewSession = {
  id: string;
  tokenHash: string;
  userId: string;
  amr: string;
  ipAddress?: string;
  userAgent?: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  loginProviderId?: string;
  upstreamIdTokenEncrypted?: string;
};

const SESSION_COLUMNS = [
  'id',
  'tokenHash',
  'userId',
  'amr',
  'ipAddress',
  'userAgent',
  'createdAt',
  'lastSeenAt',
  'expiresAt',
  'loginProviderId',
  'upstreamIdTokenEncrypted',
] as const;
const DATE_COLUMNS: ReadonlySet<string> = new Set(['createdAt', 'lastSeenAt', 'expiresAt']);
const INSERT_INTO = `INSERT INTO "Session" (${SESSION_COLUMNS.map((c) => `"${c}"`).join(', ')})`;
const SQLITE_WRITE = {
  insert: `${INSERT_INTO} VALUES (${SESSION_COLUMNS.map(() => '?').join(', ')})`,
  touch: 'UPDATE "User" SET "lastLoginAt" = ? WHERE "id" = ?',
};
const PG_VALUES = `VALUES (${SESSION_COLUMNS.map((c, i) => `$${i + 1}${DATE_COLUMNS.has(c) ? '::timestamp(3)' : ''}`).join(', ')})`;

/**
 * The PostgreSQL statement for a session and what is written with it: one statement, so one
 * transaction and one commit (data-modifying WITH clauses run whether or not they are read). Its
 * parameters: the session's columns, then the last sign-in's time, then the log entry's row.
 */
function pgSessionStatement(touch: boolean, log: boolean): { name: string; text: string } {
  const withs: string[] = [];
  let next = SESSION_COLUMNS.length + 1;
  if (touch) withs.push(`touched AS (UPDATE "User" SET "lastLoginAt" = $${next++}::timestamp(3) WHERE "id" = $3 RETURNING "id")`);
  if (log) withs.push(`logged AS (${pgSecurityLogInsert(next)})`);
  return {
    name: `gh-session-insert${touch ? '-touch' : ''}${log ? '-log' : ''}`,
    text: `${withs.length ? `WITH ${withs.join(', ')} ` : ''}${INSERT_INTO} ${PG_VALUES}`,
  };
}
// Prepared once: PG_WRITE[touch][log], indexed by 0 and 1.
const PG_WRITE = [0, 1].map((touch) => [0, 1].map((log) => pgSessionStatement(touch === 1, log === 1)));

/** What is written together with a new session, in its transaction. */
export type WrittenWithSession = {
  /** Sets the user's last sign-in to the session's start. */
  touchLastLogin?: boolean;
  /** The sign-in's security-log entry, so the audit row commits with the session or not at all. */
  logEntry?: SecurityLogEntry;
};

/**
 * Writes a new session and what comes with it (`also`), all or nothing. A user that does not exist
 * fails the write (the foreign key).
 */
export async function insertSession(db: RealmDb, session: NewSession, also: WrittenWithSession = {}): Promise<void> {
  const { touchLastLogin = false, logEntry } = also;
  const driver = driverOf(db);
  if (driver?.kind === 'sqlite') {
    const sqlite = driver.db;
    const values = SESSION_COLUMNS.map((c) => (DATE_COLUMNS.has(c) ? sqliteDateText(session[c] as Date) : (session[c] ?? null)));
    const insert = sqliteStatement(sqlite, SQLITE_WRITE.insert);
    const touch = touchLastLogin ? sqliteStatement(sqlite, SQLITE_WRITE.touch) : undefined;
    const log = logEntry ? sqliteStatement(sqlite, SQLITE_SECURITY_LOG_INSERT) : undefined;
    const logRow = logEntry ? sqliteSecurityLogRow(logEntry) : [];
    const all = sqlite.transaction(() => {
      insert.run(...values);
      touch?.run(sqliteDateText(session.createdAt), session.userId);
      log?.run(...logRow);
    });
    await runWhenFree(sqlite, () => all());
    return;
  }
  if (driver?.kind === 'postgresql') {
    const values: unknown[] = SESSION_COLUMNS.map((c) => (DATE_COLUMNS.has(c) ? pgTimestampText(session[c] as Date) : (session[c] ?? null)));
    if (touchLastLogin) values.push(pgTimestampText(session.createdAt));
    if (logEntry) values.push(...pgSecurityLogRow(logEntry));
    await driver.pool.query({ ...PG_WRITE[Number(touchLastLogin)][Number(Boolean(logEntry))], values });
    return;
  }
  const { userId, ...row } = session;
  await db.$transaction(async (tx) => {
    if (touchLastLogin)
      await tx.user.update({ where: { id: userId }, data: { lastLoginAt: session.createdAt, sessions: { create: row } }, select: { id: true } });
    else await tx.session.create({ data: session, select: { id: true } });
    if (logEntry) await tx.authLogEvent.create({ data: logEntry, select: { id: true } });
  });
}

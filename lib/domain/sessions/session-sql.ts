import { driverOf, sqliteStatement } from '../../db/driver-handle';
import { booleanValue, dateValue, epochMillis } from '../../db/sql-values';
import type { RealmDb } from '../../db/types';

// The browser session a cookie names, with the few facts of its user that decide whether it is
// live (repo.ts): read on every request made with a session cookie, so it is
// one prepared statement joining the two rows on the realm's driver, for the reason
// lib/db/oidc-payload-sql.ts gives (Prisma reads the relation as a second query, each through its
// interpreter). Through Prisma when the driver is not known.

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
  if (driver?.kind === 'sqlite') return fromRow(sqliteStatement(driver.db, SQLITE).get(tokenHash) as Row | undefined);
  if (driver?.kind === 'postgresql') return fromRow((await driver.pool.query<Row>({ ...PG, values: [tokenHash] })).rows[0]);
  return db.session.findUnique({ where: { tokenHash }, select: SESSION_WITH_USER_SELECT });
}

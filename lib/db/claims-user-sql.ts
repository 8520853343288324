import { driverOf, sqliteStatement } from './driver-handle';
import { readThrough, type ReadPoint } from './sqlite-read-cache';
import { runWhenFree } from './sqlite-transaction-gate';
import { booleanValue, dateValue, epochMillis } from './sql-values';
import type { RealmDb } from './types';

// The user row the OAuth engine reads for every token with an ID token and every userinfo answer
// (lib/domain/oidc-claims/user-claims.ts), in one prepared statement on the realm's driver, for the
// reason oidc-payload-sql.ts gives. Through Prisma when the driver is not known.

export type ClaimsUser = {
  id: string;
  userName: string;
  email: string;
  emailConfirmed: boolean;
  firstname: string | null;
  lastname: string | null;
  acronym: string | null;
  isActive: boolean;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date | null;
};

/** The same fields through Prisma (the fallback, and what tests compare the statements with). */
export const CLAIMS_USER_SELECT = {
  id: true,
  userName: true,
  email: true,
  emailConfirmed: true,
  firstname: true,
  lastname: true,
  acronym: true,
  isActive: true,
  deletedAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

const COLUMNS = '"id", "userName", "email", "emailConfirmed", "firstname", "lastname", "acronym", "isActive"';
const SQLITE = `SELECT ${COLUMNS}, "deletedAt", "createdAt", "updatedAt" FROM "User" WHERE "id" = ?`;
const PG = {
  name: 'gh-claims-user',
  text: `SELECT ${COLUMNS}, ${epochMillis('deletedAt')}, ${epochMillis('createdAt')}, ${epochMillis('updatedAt')} FROM "User" WHERE "id" = $1`,
};

type Row = Omit<ClaimsUser, 'emailConfirmed' | 'isActive' | 'deletedAt' | 'createdAt' | 'updatedAt'> & {
  emailConfirmed: unknown;
  isActive: unknown;
  deletedAt: unknown;
  createdAt: unknown;
  updatedAt: unknown;
};

function fromRow(r: Row | undefined): ClaimsUser | null {
  if (!r) return null;
  return {
    id: r.id,
    userName: r.userName,
    email: r.email,
    emailConfirmed: booleanValue(r.emailConfirmed),
    firstname: r.firstname,
    lastname: r.lastname,
    acronym: r.acronym,
    isActive: booleanValue(r.isActive),
    deletedAt: dateValue(r.deletedAt),
    createdAt: dateValue(r.createdAt)!,
    updatedAt: dateValue(r.updatedAt),
  };
}

const userSize = (u: ClaimsUser) =>
  2 * (u.id.length + u.userName.length + u.email.length + (u.firstname?.length ?? 0) + (u.lastname?.length ?? 0) + (u.acronym?.length ?? 0)) + 256;

/** The user's claim fields; `point` names the request, so that its reads share one freshness check (sqlite-read-cache.ts). */
export async function findClaimsUser(db: RealmDb, id: string, point?: ReadPoint): Promise<ClaimsUser | null> {
  const driver = driverOf(db);
  if (driver?.kind === 'sqlite') {
    const { db: sqlite } = driver;
    // Answered from the read cache while no write can have changed the row (sqlite-read-cache.ts).
    return runWhenFree(sqlite, () =>
      readThrough(sqlite, 'User', [id], userSize, () => fromRow(sqliteStatement(sqlite, SQLITE).get(id) as Row | undefined), point),
    );
  }
  if (driver?.kind === 'postgresql') return fromRow((await driver.pool.query<Row>({ ...PG, values: [id] })).rows[0]);
  return db.user.findUnique({ where: { id }, select: CLAIMS_USER_SELECT });
}

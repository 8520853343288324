import { driverOf, sqliteStatement } from './driver-handle';
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

export async function findClaimsUser(db: RealmDb, id: string): Promise<ClaimsUser | null> {
  const driver = driverOf(db);
  if (driver?.kind === 'sqlite') return runWhenFree(driver.db, () => fromRow(sqliteStatement(driver.db, SQLITE).get(id) as Row | undefined));
  if (driver?.kind === 'postgresql') return fromRow((await driver.pool.query<Row>({ ...PG, values: [id] })).rows[0]);
  return db.user.findUnique({ where: { id }, select: CLAIMS_USER_SELECT });
}

import { driverOf, sqliteStatement } from '../../db/driver-handle';
import { runWhenFree } from '../../db/sqlite-transaction-gate';
import { booleanValue, dateValue, epochMillis } from '../../db/sql-values';
import type { RealmDb } from '../../db/types';

// The user a sign-in is about, with the facts its second-factor decision needs (sign-in.ts), in one
// prepared statement on the realm's driver (lib/db/oidc-payload-sql.ts says why). Prisma's
// `_count` of passkeys, which this replaces, joined the user to a count of every passkey of the
// realm grouped by user: a scan of the whole Passkey table on every sign-in. Here the count is a
// subquery on the user's own passkeys (indexed by userId). Through Prisma when the driver is not
// known, counting the same way.

export type UserFacts = { id: string; userName: string; twoFactorEnabled: boolean; twoFactorPolicy: string; secureSetupDueAt: Date | null; passkeys: number };

/** The facts, and beside them what a password check needs: the hash and whether the account may sign in. */
export type PasswordSignInUser = { facts: UserFacts; passwordHash: string | null; isActive: boolean; deletedAt: Date | null };

const FACTS = 'u."id", u."userName", u."twoFactorEnabled", u."twoFactorPolicy"';
const PASSKEYS = '(SELECT COUNT(*) FROM "Passkey" p WHERE p."userId" = u."id")';

/**
 * The person whose user name is the given name, else the one whose address it is: deterministic
 * even if an old realm holds a name equal to another person's address, which no write lets in any
 * more (users/identity-uniqueness.ts). Each half uses its own unique index.
 */
const byName = (columns: string, userName: string, email: string) =>
  `SELECT ${columns}, 0 AS "byEmail" FROM "User" u WHERE u."userNameNormalized" = ${userName} ` +
  `UNION ALL SELECT ${columns}, 1 AS "byEmail" FROM "User" u WHERE u."emailNormalized" = ${email} ORDER BY "byEmail" LIMIT 1`;

const SQLITE = {
  byId: `SELECT ${FACTS}, u."secureSetupDueAt", ${PASSKEYS} AS "passkeys" FROM "User" u WHERE u."id" = ?`,
  byName: byName(`${FACTS}, u."secureSetupDueAt", u."passwordHash", u."isActive", u."deletedAt", ${PASSKEYS} AS "passkeys"`, '?', '?'),
};
const PG = {
  byId: {
    name: 'gh-sign-in-user-by-id',
    text: `SELECT ${FACTS}, ${epochMillis('secureSetupDueAt', 'u')}, ${PASSKEYS}::int AS "passkeys" FROM "User" u WHERE u."id" = $1`,
  },
  byName: {
    name: 'gh-sign-in-user-by-name',
    text: byName(
      `${FACTS}, ${epochMillis('secureSetupDueAt', 'u')}, u."passwordHash", u."isActive", ${epochMillis('deletedAt', 'u')}, ${PASSKEYS}::int AS "passkeys"`,
      '$1',
      '$2',
    ),
  },
};

type Row = Record<string, unknown> & { id: string; userName: string; twoFactorPolicy: string };

function facts(r: Row): UserFacts {
  return {
    id: r.id,
    userName: r.userName,
    twoFactorEnabled: booleanValue(r.twoFactorEnabled),
    twoFactorPolicy: r.twoFactorPolicy,
    secureSetupDueAt: dateValue(r.secureSetupDueAt),
    passkeys: Number(r.passkeys),
  };
}

const FACTS_SELECT = { id: true, userName: true, twoFactorEnabled: true, twoFactorPolicy: true, secureSetupDueAt: true } as const;

async function rowOf(db: RealmDb, query: keyof typeof SQLITE, values: string[]): Promise<Row | undefined> {
  const driver = driverOf(db);
  if (driver?.kind === 'sqlite') return runWhenFree(driver.db, () => sqliteStatement(driver.db, SQLITE[query]).get(...values) as Row | undefined);
  if (driver?.kind === 'postgresql') return (await driver.pool.query<Row>({ ...PG[query], values })).rows[0];
  return undefined;
}

/** The second-factor facts of a user, or null. */
export async function findUserFacts(db: RealmDb, id: string): Promise<UserFacts | null> {
  if (!driverOf(db)) {
    const user = await db.user.findUnique({ where: { id }, select: FACTS_SELECT });
    return user && { ...user, passkeys: await db.passkey.count({ where: { userId: id } }) };
  }
  const row = await rowOf(db, 'byId', [id]);
  return row ? facts(row) : null;
}

/** The user whose normalized user name or e-mail address is given, for a password check, or null. */
export async function findPasswordSignInUser(db: RealmDb, userNameNormalized: string, emailNormalized: string): Promise<PasswordSignInUser | null> {
  if (!driverOf(db)) {
    // At most one of each (both columns are unique); the user-name match first, as in the SQL.
    const users = await db.user.findMany({
      where: { OR: [{ userNameNormalized }, { emailNormalized }] },
      select: { ...FACTS_SELECT, userNameNormalized: true, passwordHash: true, isActive: true, deletedAt: true },
      take: 2,
    });
    const user = users.find((u) => u.userNameNormalized === userNameNormalized) ?? users[0];
    if (!user) return null;
    const { passwordHash, isActive, deletedAt, userNameNormalized: _name, ...facts } = user;
    return { facts: { ...facts, passkeys: await db.passkey.count({ where: { userId: user.id } }) }, passwordHash, isActive, deletedAt };
  }
  const row = await rowOf(db, 'byName', [userNameNormalized, emailNormalized]);
  if (!row) return null;
  return {
    facts: facts(row),
    passwordHash: (row.passwordHash as string | null) ?? null,
    isActive: booleanValue(row.isActive),
    deletedAt: dateValue(row.deletedAt),
  };
}

import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { usersWithPassword } from './password-presence';

// Reads of user rows for the admin API. Credential material stays out: the hash is never selected,
// only whether one exists (docs/architecture.md "Data access").

export const userColumns = {
  id: true,
  userName: true,
  email: true,
  emailConfirmed: true,
  firstname: true,
  lastname: true,
  acronym: true,
  isActive: true,
  deletedAt: true,
  lastLoginAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies RealmPrisma.UserSelect;

export type UserRecord = RealmPrisma.UserGetPayload<{ select: typeof userColumns }>;
/** A user as the admin API answers it: whether a password is set is a second, indexed read. */
export type UserRow = UserRecord & { hasPassword: boolean };

export async function withHasPassword(db: RealmTx, rows: UserRecord[]): Promise<UserRow[]> {
  if (!rows.length) return [];
  const has = await usersWithPassword(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, hasPassword: has.has(r.id) }));
}

/** The user, deleted or not, or 404 User.NotFound (one read: for checks and for the user's fields). */
export async function requireUserRecord(db: RealmTx, id: string): Promise<UserRecord> {
  const row = await db.user.findUnique({ where: { id }, select: userColumns });
  if (!row) throw new AppError('User.NotFound');
  return row;
}

/** As requireUserRecord, with whether a password is set: for answers that carry HasPassword. */
export async function requireUserRow(db: RealmTx, id: string): Promise<UserRow> {
  return (await withHasPassword(db, [await requireUserRecord(db, id)]))[0];
}

/** As requireUserRecord, and 409 User.Deleted for a soft-deleted user (restore it first). */
export async function requireLiveUserRow(db: RealmTx, id: string): Promise<UserRecord> {
  const row = await requireUserRecord(db, id);
  if (row.deletedAt) throw new AppError('User.Deleted');
  return row;
}

/**
 * Search over user name, e-mail and names. User name and e-mail use their lower-case copies, so the
 * match is case-insensitive on both engines. The schema has no lower-case copies of the first and
 * last name; they are matched as typed, lower-cased and capitalised (PostgreSQL LIKE is
 * case-sensitive, SQLite's is not for ASCII).
 */
export function userSearchWhere(search: string | undefined): RealmPrisma.UserWhereInput {
  const raw = search?.trim();
  if (!raw) return {};
  const lower = raw.toLowerCase();
  const variants = [...new Set([raw, lower, lower.charAt(0).toUpperCase() + lower.slice(1)])];
  return {
    OR: [
      { userNameNormalized: { contains: lower } },
      { emailNormalized: { contains: lower } },
      ...variants.flatMap((v) => [{ firstname: { contains: v } }, { lastname: { contains: v } }]),
    ],
  };
}

import type { RealmTx } from '../../db/types';

// Whether a user has a password, without reading the hash into code that only needs the yes or no
// (docs/architecture.md "Data access": credential material is named only where it is set or verified).

/** The ids among `userIds` of users who have a password. */
export async function usersWithPassword(db: RealmTx, userIds: readonly string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await db.user.findMany({ where: { id: { in: [...userIds] }, passwordHash: { not: null } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

export async function hasPassword(db: RealmTx, userId: string): Promise<boolean> {
  return (await usersWithPassword(db, [userId])).has(userId);
}

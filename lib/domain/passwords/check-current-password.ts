import { verifyPassword } from '../../auth/passwords';
import type { RealmTx } from '../../db/types';

// The signed-in person proves, with the password they already have, that a grave step is theirs
// (requesting the deletion of their account). Kept here, beside the other code that reads the hash,
// so callers learn only the verdict (docs/architecture.md "Data access").

/**
 * `none`: the account has no password (passkey or external sign-in only); `missing`: it has one and
 * none was given; `wrong`: the one given does not match.
 */
export type PasswordVerdict = 'ok' | 'wrong' | 'missing' | 'none';

export async function checkCurrentPassword(db: RealmTx, userId: string, password: string | null | undefined): Promise<PasswordVerdict> {
  const row = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  if (!row?.passwordHash) return 'none';
  if (!password) return 'missing';
  return (await verifyPassword(row.passwordHash, password)) ? 'ok' : 'wrong';
}

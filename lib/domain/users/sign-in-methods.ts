import type { RealmTx } from '../../db/types';
import { hasPassword } from './password-presence';

// The last-way-to-sign-in rule (spec 3.6, Idp.LastAuthMethod): a user keeps at least one of a
// password, a passkey of the realm's current RP ID (a passkey of an old RP ID cannot sign in), or an
// external link. Callers lock the user's row first (lockUserRow), so two removals of someone's last
// two methods run one after the other and the second sees what the first left.

export async function lockUserRow(tx: RealmTx, userId: string): Promise<void> {
  // A no-op write takes the row lock on PostgreSQL; SQLite serializes writers anyway.
  await tx.$executeRaw`UPDATE "User" SET "securityStamp" = "securityStamp" WHERE "id" = ${userId}`;
}

/** How many ways to sign in the user keeps without the passkey or link named in `without`. */
export async function remainingSignInMethods(tx: RealmTx, userId: string, rpId: string, without: { passkeyId?: string; linkId?: string }): Promise<number> {
  const passkeys = await tx.passkey.count({ where: { userId, rpId, ...(without.passkeyId ? { id: { not: without.passkeyId } } : {}) } });
  const links = await tx.externalLink.count({ where: { userId, ...(without.linkId ? { id: { not: without.linkId } } : {}) } });
  return passkeys + links + ((await hasPassword(tx, userId)) ? 1 : 0);
}

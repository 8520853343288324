import type { RealmTx } from '../../db/types';
import { canonicalInviteCode, inviteCodeHash } from './code';
import { inviteCodeStatusWhere } from './status';

// Used by self-registration: a code is checked when the registration is submitted and consumed in
// the transaction that creates the account, so an abandoned registration never burns a code.

/** The id of the App's code `input` names if it is still Active, else null. */
export async function findActiveInviteCode(db: RealmTx, appId: string, input: string): Promise<string | null> {
  const canonical = canonicalInviteCode(input);
  if (!canonical) return null;
  const row = await db.inviteCode.findFirst({
    where: { AND: [{ codeHash: inviteCodeHash(canonical), appId }, inviteCodeStatusWhere('Active')] },
    select: { id: true },
  });
  return row?.id ?? null;
}

/** Marks the code used by `userId`; false when it is no longer Active (used, revoked, expired). */
export async function consumeInviteCode(tx: RealmTx, codeId: string, userId: string): Promise<boolean> {
  const now = new Date();
  const r = await tx.inviteCode.updateMany({
    where: { AND: [{ id: codeId }, inviteCodeStatusWhere('Active', now)] },
    data: { usedAt: now, usedByUserId: userId },
  });
  return r.count === 1;
}

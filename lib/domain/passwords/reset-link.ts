import { realmDb, type DomainContext } from '../../realm/context';
import { redeemToken, type RedeemFailure } from '../one-time-secrets/one-time-secrets';
import { normalizeEmail } from '../users/insert-user';

// What the mailed reset link's page needs before asking for a new password (spec 4.1): whether the
// link still works, and the address it was mailed to, so nobody has to type what the link already
// names. Only the holder of the token (256 random bits) learns the address, and nothing is spent:
// POST /api/account/reset-password checks everything again when the password is sent.

export type ResetLinkState = { state: 'open'; email: string } | { state: RedeemFailure };

export async function resetLinkState(ctx: DomainContext, token: string): Promise<ResetLinkState> {
  const db = await realmDb(ctx.realm);
  const found = await redeemToken(db, 'password-reset', token, { consume: false });
  if (!found.ok) return { state: found.reason };
  const sentTo = found.record.email ?? '';
  const user = found.record.userId
    ? await db.user.findUnique({ where: { id: found.record.userId }, select: { emailNormalized: true, isActive: true, deletedAt: true } })
    : null;
  // The same conditions as the reset itself: a link to an address the account no longer has is dead.
  if (!sentTo || !user || !user.isActive || user.deletedAt || user.emailNormalized !== normalizeEmail(sentTo)) return { state: 'invalid' };
  return { state: 'open', email: sentTo };
}

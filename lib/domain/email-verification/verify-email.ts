import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { redeemToken } from '../one-time-secrets/one-time-secrets';
import { tokenError } from '../one-time-secrets/token-error';
import { normalizeEmail } from '../users/insert-user';

// POST /api/account/email/verify (spec 4.1, anonymous: the token is the proof). The token names the
// user and the address it was mailed to; if the user's address has changed since, the link proves
// nothing about the new one and is refused (and spent). Confirming is a conditional update on that
// address, so a change racing the click cannot confirm the wrong address.
const ADDRESS_CHANGED = 'The e-mail address of the account has changed since this link was sent. Ask for a new link.';

export async function verifyEmail(ctx: DomainContext, token: string): Promise<void> {
  const db = await realmDb(ctx.realm);
  const found = await redeemToken(db, 'email-verification', token, { consume: false });
  if (!found.ok) throw tokenError(found.reason);
  const { userId, email } = found.record;
  const user = userId ? await db.user.findUnique({ where: { id: userId }, select: { id: true, emailNormalized: true, deletedAt: true } }) : null;
  const sentTo = email ? normalizeEmail(email) : undefined;
  if (!user || user.deletedAt || !sentTo || user.emailNormalized !== sentTo) {
    await redeemToken(db, 'email-verification', token);
    await publish(
      eventFrom(ctx, 'user.email-verification-failed', user?.id, { success: false, userId: user?.id, reason: user ? 'address-changed' : 'no-account' }),
    );
    throw new AppError('Token.Invalid', { detail: user ? ADDRESS_CHANGED : undefined });
  }
  await db.$transaction(async (tx) => {
    const spent = await redeemToken(tx, 'email-verification', token);
    if (!spent.ok) throw tokenError(spent.reason);
    const confirmed = await tx.user.updateMany({
      where: { id: user.id, emailNormalized: sentTo, deletedAt: null },
      data: { emailConfirmed: true, updatedAt: new Date() },
    });
    if (confirmed.count !== 1) throw new AppError('Token.Invalid', { detail: ADDRESS_CHANGED });
  });
  await publish(eventFrom(ctx, 'user.email-verified', user.id, { userId: user.id }));
}

import { hashPassword } from '../../auth/passwords';
import { randomToken } from '../../crypto/tokens';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { redeemToken } from '../one-time-secrets/one-time-secrets';
import { endSignIns } from '../sessions/end-sign-ins';
import { normalizeEmail } from '../users/insert-user';
import { assertNewPasswordAllowed, assertPasswordsEnabled } from './password-rules';
import { resetContinuation } from './reset-continuation';
import { tokenError } from '../one-time-secrets/token-error';

// POST /api/account/reset-password (spec 4.1). The token must belong to the account of the address
// sent with it, and that address must still be the one the link was mailed to. It is checked first without being spent, so a password the policy refuses can be
// retried with the same link; it is then spent inside the transaction that sets the password, so
// two racing resets cannot both succeed. Every session of the user ends (browser and OAuth client
// sessions with their tokens) and the security stamp
// rotates: whoever knew the old password is out.
export async function resetPassword(ctx: DomainContext, input: { email: string; token: string; newPassword: string }): Promise<{ redirect?: string }> {
  await assertPasswordsEnabled(ctx.realm);
  const db = await realmDb(ctx.realm);
  const found = await redeemToken(db, 'password-reset', input.token, { consume: false });
  if (!found.ok) {
    await publish(eventFrom(ctx, 'auth.password-reset-failed', undefined, { success: false, reason: found.reason }));
    throw tokenError(found.reason);
  }
  const userId = found.record.userId ?? '';
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, userName: true, email: true, emailNormalized: true, isActive: true, deletedAt: true },
  });
  // The link went to one address: it only works while that is still the account's address, and
  // only for someone who names it.
  const sentTo = normalizeEmail(found.record.email ?? '');
  if (!user || !user.isActive || user.deletedAt || user.emailNormalized !== normalizeEmail(input.email) || user.emailNormalized !== sentTo) {
    await publish(
      eventFrom(ctx, 'auth.password-reset-failed', user?.id, { success: false, reason: user ? 'address-mismatch' : 'no-account', userId: user?.id }),
    );
    throw new AppError('Token.Invalid');
  }
  await assertNewPasswordAllowed(ctx.realm, input.newPassword, { userName: user.userName, email: user.email });

  const passwordHash = await hashPassword(input.newPassword);
  await db.$transaction(async (tx) => {
    const spent = await redeemToken(tx, 'password-reset', input.token);
    if (!spent.ok) throw tokenError(spent.reason);
    await tx.user.update({ where: { id: user.id }, data: { passwordHash, securityStamp: randomToken(16), updatedAt: new Date() } });
    // Any other reset link of the user dies with this one.
    await tx.oneTimeSecret.updateMany({ where: { purpose: 'password-reset', userId: user.id, usedAt: null }, data: { usedAt: new Date() } });
  });
  const ended = await endSignIns(db, user.id);
  await publish(
    eventFrom(ctx, 'auth.password-reset', user.id, {
      userId: user.id,
      userName: user.userName,
      sessionsRevoked: ended.browserSessions,
      engineRecordsRevoked: ended.engineRecords,
    }),
  );
  const data = found.record.data as { redirect?: unknown } | undefined;
  return { redirect: resetContinuation(data?.redirect) };
}

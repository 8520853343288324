import { hashPassword, verifyPassword } from '../../auth/passwords';
import { requireUser } from '../../authz/require-permission';
import { randomToken } from '../../crypto/tokens';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { limitRate } from '../realm-settings/rate-limit';
import { endSignIns } from '../sessions/end-sign-ins';
import { assertNewPasswordAllowed, assertPasswordsEnabled } from './password-rules';

// POST /api/account/change-password (spec 4.2). The current password proves the person at the
// keyboard is the owner, so guesses are limited per account (target) as well as per address. The
// session in use stays; every other one ends, with every OAuth client session and its tokens, and
// the security stamp rotates. An account without a
// password (passkey or external sign-in only) sets one through forgot-password instead.
export async function changePassword(ctx: DomainContext, input: { currentPassword: string; newPassword: string }): Promise<void> {
  const actor = requireUser(ctx);
  await assertPasswordsEnabled(ctx.realm);
  await limitRate(ctx, 'change-password', 'target', actor.userId);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({ where: { id: actor.userId }, select: { id: true, userName: true, email: true, passwordHash: true } });
  if (!user) throw new AppError('Auth.Unauthenticated');
  if (!user.passwordHash) throw new AppError('Password.NotSet');
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    await publish(eventFrom(ctx, 'auth.password-change-failed', user.id, { success: false, userId: user.id, reason: 'bad-password' }));
    throw new AppError('Password.Incorrect', { errors: { CurrentPassword: ['The current password is not correct.'] } });
  }
  await assertNewPasswordAllowed(ctx.realm, input.newPassword, { userName: user.userName, email: user.email });

  const passwordHash = await hashPassword(input.newPassword);
  // Compare-and-set on the old hash: of two concurrent changes made with the same old password,
  // only one wins; the other is told its current password is no longer right.
  const changed = await db.user.updateMany({
    where: { id: user.id, passwordHash: user.passwordHash },
    data: { passwordHash, securityStamp: randomToken(16), updatedAt: new Date() },
  });
  if (changed.count !== 1) throw new AppError('Password.Incorrect');
  const ended = await endSignIns(db, user.id, actor.sessionId ?? undefined);
  await publish(
    eventFrom(ctx, 'auth.password-changed', user.id, { userId: user.id, sessionsRevoked: ended.browserSessions, engineRecordsRevoked: ended.engineRecords }),
  );
}

import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import type { SignInOutcome } from '../auth/sign-in';
import { realmDb, type DomainContext } from '../../realm/context';
import { limitRate, refundRate } from '../realm-settings/rate-limit';
import { enrollee } from './enrollee';
import { countPendingFailure, finishPendingSignIn } from './pending-sign-in';
import { useTotpCode } from './use-totp-code';

// POST /api/account/mfa/verify (spec 4.3): a code from the new authenticator confirms it and turns
// two-factor sign-in on; any secure-setup deadline is cleared. For a setup-only pending sign-in
// (grace period over) the person is signed in at the same time.
export type EnableResult = { kind: 'enabled' } | { kind: 'signed-in'; outcome: Extract<SignInOutcome, { kind: 'session' }> };

export async function enableTwoFactor(ctx: DomainContext, code: string, pendingToken: string | undefined): Promise<EnableResult> {
  const { userId, pending } = await enrollee(ctx, pendingToken);
  await limitRate(ctx, 'mfa-login', 'target', userId);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({ where: { id: userId }, select: { userName: true, twoFactorEnabled: true } });
  if (!user) throw new AppError('Auth.Unauthenticated');
  if (user.twoFactorEnabled) throw new AppError('Mfa.AlreadyEnabled');
  const use = await useTotpCode(db, userId, code, { confirmed: false });
  if (use === 'no-authenticator') throw new AppError('Mfa.SetupNotStarted');
  if (use !== 'ok') {
    if (pending) await countPendingFailure(ctx, pending);
    await publish(eventFrom(ctx, 'auth.totp-verify-failed', userId, { userId, userName: user.userName, success: false, reason: use }));
    throw new AppError(use === 'replayed' ? 'Mfa.CodeReplayed' : 'Mfa.InvalidCode');
  }
  await refundRate(ctx, 'mfa-login', 'target', userId); // only wrong codes count
  const now = new Date();
  await db.$transaction(async (tx) => {
    await tx.totpAuthenticator.update({ where: { userId }, data: { confirmedAt: now } });
    await tx.user.update({ where: { id: userId }, data: { twoFactorEnabled: true, secureSetupDueAt: null, updatedAt: now } });
  });
  await publish(eventFrom(ctx, 'auth.two-factor-enabled', userId, { userId, userName: user.userName, method: 'totp' }));
  if (!pending) return { kind: 'enabled' };
  return { kind: 'signed-in', outcome: await finishPendingSignIn(ctx, pending, 'otp') };
}

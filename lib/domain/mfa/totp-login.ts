import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import type { SignInOutcome } from '../auth/sign-in';
import { realmDb, type DomainContext } from '../../realm/context';
import { limitRate, refundRate } from '../realm-settings/rate-limit';
import { countPendingFailure, finishPendingSignIn, readPendingSignIn } from './pending-sign-in';
import { useTotpCode } from './use-totp-code';

// POST /api/account/mfa/login (spec 4.3, 5.5): the second step with a code from the authenticator.
// Guessing is bounded three ways: per source address and per user (policy `mfa-login`), and by the
// pending sign-in's own attempt limit, after which the first factor must be proven again. Only
// wrong codes count against the per-user ceiling: a right one gives its hit back.
export async function totpLogin(ctx: DomainContext, pendingToken: string | undefined, code: string): Promise<Extract<SignInOutcome, { kind: 'session' }>> {
  const pending = await readPendingSignIn(ctx, pendingToken, 'totp');
  if (pending.setupOnly) throw new AppError('SignIn.SetupOnly');
  const user = pending.user;
  await limitRate(ctx, 'mfa-login', 'target', user.id);
  if (!user.twoFactorEnabled) throw new AppError('Mfa.NotEnabled');
  const use = await useTotpCode(await realmDb(ctx.realm), user.id, code, { confirmed: true });
  if (use === 'no-authenticator') throw new AppError('Mfa.NotEnabled');
  if (use !== 'ok') {
    await countPendingFailure(ctx, pending);
    await publish(
      eventFrom(ctx, 'auth.second-factor-failed', user.id, { userId: user.id, userName: user.userName, success: false, method: 'totp', reason: use }),
    );
    throw new AppError(use === 'replayed' ? 'Mfa.CodeReplayed' : 'Mfa.InvalidCode');
  }
  await refundRate(ctx, 'mfa-login', 'target', user.id);
  return finishPendingSignIn(ctx, pending, 'otp');
}

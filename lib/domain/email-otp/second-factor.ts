import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../context';
import type { Pending } from '../mfa/pending-sign-in';
import { realmSettings } from '../realm-settings/realm-settings';

/**
 * The e-mail code may finish a pending sign-in when completeFirstFactor offered it (sign-in.ts,
 * secondFactorsOf): 2FA on, the realm allows e-mail codes, and the first factor was not itself a
 * mailed code or link (that would be the same mailbox twice).
 */
export async function assertEmailCodeSecondFactor(ctx: DomainContext, pending: Pending): Promise<void> {
  if (pending.setupOnly) throw new AppError('SignIn.SetupOnly');
  const s = await realmSettings(ctx.realm);
  const mailedFirst = pending.amr.includes('otp') || pending.amr.includes('mail');
  if (!pending.user.twoFactorEnabled || !s.SignIn.EmailOtp || mailedFirst) throw new AppError('SignIn.MethodDisabled');
}

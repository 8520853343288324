import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../../realm/context';
import { secondFactorsOfPending, type Pending } from '../mfa/pending-sign-in';

/**
 * The e-mail code may finish a pending sign-in only when it was offered (sign-in.ts,
 * offeredSecondFactors): 2FA on, the realm allows e-mail codes, and the first factor was not itself
 * a mailed code or link (that would be the same mailbox twice).
 */
export async function assertEmailCodeSecondFactor(ctx: DomainContext, pending: Pending): Promise<void> {
  if (pending.setupOnly) throw new AppError('SignIn.SetupOnly');
  if (!(await secondFactorsOfPending(ctx, pending)).includes('email-otp')) throw new AppError('SignIn.MethodDisabled');
}

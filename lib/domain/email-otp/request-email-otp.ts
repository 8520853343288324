import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { readPendingSignIn } from '../mfa/pending-sign-in';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { limitRate } from '../realm-settings/rate-limit';
import { settingsInContext } from '../apps/app-settings';
import { normalizeEmail } from '../users/insert-user';
import { assertEmailCodeSecondFactor } from './second-factor';
import { codeMail, deliverInBackground } from './send-code';
import { deliver } from '../../mail/transport';
import { withUniformDuration } from '../anti-enumeration/uniform-duration';
import { jitOnOtpEnabled, mayRegisterMailbox, type JitCodeData } from '../registration/jit-on-otp';
import { flag } from '../flags/registry';
import { RealmFeatures } from '../realm-settings/features';

// POST /api/account/email-otp/login/request (spec 4.3, 5.6).
//
// First factor (`Email` given): always 200 with the same body, after the same time, whether or not
// an account has the address. Both paths store a code for the mailbox (the unknown one is never
// mailed), so what a later login answers — wrong, expired, too many attempts — cannot tell them
// apart either. The code row names the user in its data, not in its user column, which keeps it
// apart from second-step codes.
//
// With the JitOnOtp self-registration posture (registration/jit-on-otp.ts) the code for an address
// no user row holds is mailed as well, marked `jit` in its data: proving it creates the account.
//
// Second step (no `Email`, the pending cookie of a sign-in that waits for a second factor): the
// code goes to the account's own address.
export async function requestEmailOtp(ctx: DomainContext, email: string, options: { registration?: boolean } = {}): Promise<void> {
  // The App of the request (its host, or the native client's App) decides the JitOnOtp posture.
  const s = await settingsInContext(ctx);
  if (!(await flag(ctx, RealmFeatures.EmailOtp))) throw new AppError('SignIn.MethodDisabled');
  const mailbox = normalizeEmail(email);
  await limitRate(ctx, 'email-otp-request', 'target', mailbox);
  await withUniformDuration('email-otp-request', async () => {
    const db = await realmDb(ctx.realm);
    const user = await db.user.findFirst({
      where: { emailNormalized: mailbox, isActive: true, deletedAt: null },
      select: { id: true, userName: true, email: true },
    });
    // `registration`: the native sign-up (spec 4.4) asks for an account under any open posture.
    const jit = !user && (jitOnOtpEnabled(s) || Boolean(options.registration)) && (await mayRegisterMailbox(db, mailbox));
    const data: { userId: string | null } | JitCodeData = jit ? { userId: null, jit: true } : { userId: user?.id ?? null };
    const { secret } = await issueSecret(db, { purpose: 'email-otp', email: mailbox, data, replacePrevious: true });
    if (user) deliverInBackground(ctx, codeMail(ctx, user.email, secret, false), { purpose: 'email-otp', userId: user.id });
    else if (jit) deliverInBackground(ctx, codeMail(ctx, email.trim(), secret, false), { purpose: 'email-otp-jit' });
    await publish(eventFrom(ctx, 'auth.email-otp-requested', user?.id, { userId: user?.id, userName: user?.userName, knownAddress: Boolean(user) }));
    return { value: undefined, real: Boolean(user) };
  });
}

export async function requestSecondFactorCode(ctx: DomainContext, pendingToken: string | undefined): Promise<void> {
  const pending = await readPendingSignIn(ctx, pendingToken);
  await assertEmailCodeSecondFactor(ctx, pending);
  const user = pending.user;
  await limitRate(ctx, 'email-otp-request', 'target', normalizeEmail(user.email));
  const db = await realmDb(ctx.realm);
  // Bound to this pending sign-in: the code finishes it and nothing else.
  const { secret } = await issueSecret(db, { purpose: 'email-otp', userId: user.id, data: { pendingId: pending.id }, replacePrevious: true });
  try {
    await deliver(await codeMail(ctx, user.email, secret, true));
  } catch {
    await publish(eventFrom(ctx, 'auth.mail-failed', user.id, { success: false, purpose: 'email-otp-second-factor', userId: user.id }));
    throw new AppError('Mail.SendFailed');
  }
  await publish(eventFrom(ctx, 'auth.second-factor-code-sent', user.id, { userId: user.id, userName: user.userName, method: 'email-otp' }));
}

import { AppError } from '../../errors/app-error';
import type { ErrorCode } from '../../errors/catalog';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { completeFirstFactor, type SignInOutcome } from '../auth/sign-in';
import { realmDb, type DomainContext } from '../../realm/context';
import { countPendingFailure, finishPendingSignIn, readPendingSignIn } from '../mfa/pending-sign-in';
import { redeemCode, type RedeemFailure } from '../one-time-secrets/one-time-secrets';
import { limitRate, refundRate } from '../realm-settings/rate-limit';
import { settingsForApp } from '../apps/app-settings';
import { normalizeEmail } from '../users/insert-user';
import { onUniqueViolation } from '../../db/errors';
import { createJitAccount, isJitCode, jitOnOtpEnabled, publishJitRegistered, type JitResult } from '../registration/jit-on-otp';
import { BUILT_IN_IDS } from '../built-in-ids';
import { assertEmailCodeSecondFactor } from './second-factor';
import { flag } from '../flags/registry';
import { RealmFeatures } from '../realm-settings/features';

// POST /api/account/email-otp/login (spec 4.3, 5.5).
//
// First factor `{ Email, Code }`: wrong, expired and exhausted codes answer 400 Code.Invalid,
// Code.Expired and Code.TooManyAttempts. An address without an account got a code row too (see
// request-email-otp.ts) whose code nobody knows, so it answers exactly as a wrong code would, and
// an address for which no code was asked answers Code.Invalid either way. A right code proves the
// mailbox: an unconfirmed address becomes confirmed. The outcome comes from completeFirstFactor, so
// a user with an authenticator still gets `requiresTwoFactor`.
//
// JitOnOtp posture (registration/jit-on-otp.ts): a code mailed to an address without an account
// creates the account here, in the transaction that redeems the code, so a refusal (invite code
// required or invalid) leaves the code usable and an account is never created twice.
//
// Second step `{ Code }` with the pending cookie: finishes that pending sign-in.
const FAILURE: Record<RedeemFailure, ErrorCode> = {
  invalid: 'Code.Invalid',
  used: 'Code.Invalid',
  expired: 'Code.Expired',
  'too-many-attempts': 'Code.TooManyAttempts',
};

export type JitInput = { inviteCode?: string | null; appId: string };

export async function emailOtpLogin(
  ctx: DomainContext,
  email: string,
  code: string,
  jitInput: JitInput = { appId: BUILT_IN_IDS.mainApp },
): Promise<SignInOutcome> {
  const userId = await proveEmailOtp(ctx, email, code, jitInput);
  return completeFirstFactor(ctx, userId, 'otp');
}

/**
 * The first-factor proof shared by the hosted sign-in and the native `urn:gatehouse:otp` grant
 * (spec 4.4): redeems the code (creating the account under the JIT posture) and answers the user.
 */
export async function proveEmailOtp(ctx: DomainContext, email: string, code: string, jitInput: JitInput = { appId: BUILT_IN_IDS.mainApp }): Promise<string> {
  // The App the sign-in is for: its SelfRegistration (JitOnOtp, RequireInviteCode) overrides the realm's.
  const s = await settingsForApp(ctx.realm, jitInput.appId);
  if (!(await flag(ctx, RealmFeatures.EmailOtp))) throw new AppError('SignIn.MethodDisabled');
  const mailbox = normalizeEmail(email);
  await limitRate(ctx, 'email-otp-login', 'target', mailbox);
  const db = await realmDb(ctx.realm);
  let r: Awaited<ReturnType<typeof redeemCode>>;
  let jit: JitResult | null = null;
  // Codes marked `jit` exist only under an open posture (JitOnOtp, or a native sign-up under
  // ExplicitEndpoint): redeeming one creates the account in the same transaction.
  if (jitOnOtpEnabled(s) || s.SelfRegistration.Posture === 'ExplicitEndpoint') {
    // A concurrent sign-up of the same address that slipped past the check: the code stays usable.
    ({ r, jit } = await onUniqueViolation(
      () =>
        db.$transaction(async (tx) => {
          const r = await redeemCode(tx, 'email-otp', { email: mailbox }, code);
          // A wrong code returns (and commits its counted attempt); only a refused creation rolls back.
          return { r, jit: r.ok && isJitCode(r.record.data) ? await createJitAccount(ctx, tx, s, { email, ...jitInput }) : null };
        }),
      'Code.Invalid',
    ));
  } else {
    r = await redeemCode(db, 'email-otp', { email: mailbox }, code);
  }
  if (jit?.kind === 'created') await publishJitRegistered(ctx, jit, jitInput.appId);
  const userId = jit && jit.kind !== 'refused' ? jit.userId : r.ok ? (r.record.data as { userId?: unknown } | undefined)?.userId : undefined;
  const user =
    typeof userId === 'string'
      ? await db.user.findUnique({
          where: { id: userId },
          select: { id: true, userName: true, emailNormalized: true, emailConfirmed: true, isActive: true, deletedAt: true },
        })
      : null;
  if (!r.ok || !user || !user.isActive || user.deletedAt || user.emailNormalized !== mailbox) {
    const reason = r.ok ? 'no-account' : r.reason;
    await publish(eventFrom(ctx, 'auth.email-otp-failed', user?.id, { userId: user?.id, userName: user?.userName, success: false, reason }));
    throw new AppError(r.ok ? 'Code.Invalid' : FAILURE[r.reason]);
  }
  if (!user.emailConfirmed) await db.user.update({ where: { id: user.id }, data: { emailConfirmed: true } });
  return user.id;
}

export async function emailOtpSecondFactor(
  ctx: DomainContext,
  pendingToken: string | undefined,
  code: string,
): Promise<Extract<SignInOutcome, { kind: 'session' }>> {
  const pending = await readPendingSignIn(ctx, pendingToken, 'email-otp');
  await assertEmailCodeSecondFactor(ctx, pending);
  const user = pending.user;
  await limitRate(ctx, 'mfa-login', 'target', user.id);
  const db = await realmDb(ctx.realm);
  const r = await redeemCode(db, 'email-otp', { userId: user.id }, code);
  const boundHere = r.ok && (r.record.data as { pendingId?: unknown } | undefined)?.pendingId === pending.id;
  if (!r.ok || !boundHere) {
    await countPendingFailure(ctx, pending);
    const reason = r.ok ? 'other-sign-in' : r.reason;
    await publish(
      eventFrom(ctx, 'auth.second-factor-failed', user.id, { userId: user.id, userName: user.userName, success: false, method: 'email-otp', reason }),
    );
    throw new AppError(r.ok ? 'Code.Invalid' : FAILURE[r.reason]);
  }
  await refundRate(ctx, 'mfa-login', 'target', user.id); // only wrong codes count
  return finishPendingSignIn(ctx, pending, 'otp');
}

import { onUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { completeFirstFactor, type SignInOutcome } from '../auth/sign-in';
import { realmDb, type DomainContext } from '../../realm/context';
import { consumeInviteCode } from '../invite-codes/redeem-invite-code';
import { redeemToken, type RedeemFailure } from '../one-time-secrets/one-time-secrets';
import { settingsForApp } from '../apps/app-settings';
import { BUILT_IN_IDS } from '../built-in-ids';
import { insertUser } from '../users/insert-user';
import type { PendingRegistration } from './register';

// POST /api/account/register/verify-email (spec 4.1): proving the mailed link creates the account
// (e-mail confirmed) and consumes the invite code, in one transaction with the token's redemption,
// so a second verify answers Token.Used and a code can never be spent twice. The person is then
// signed in: the link proved the mailbox, a first factor ('mail'); the realm's 2FA rules apply.
const TOKEN_ERRORS: Record<RedeemFailure, 'Token.Invalid' | 'Token.Expired' | 'Token.Used'> = {
  invalid: 'Token.Invalid',
  expired: 'Token.Expired',
  used: 'Token.Used',
  'too-many-attempts': 'Token.Invalid',
};

export async function verifyRegistration(ctx: DomainContext, token: string): Promise<{ outcome: SignInOutcome; redirect: string | null }> {
  const db = await realmDb(ctx.realm);
  // The posture is the App's the registration was made for (the link itself opens on the realm's
  // primary domain): a look at the token without spending it names that App.
  const peek = await redeemToken(db, 'registration', token, { consume: false });
  const appId = (peek.ok && (peek.record.data as Partial<PendingRegistration> | null)?.appId) || BUILT_IN_IDS.mainApp;
  const s = await settingsForApp(ctx.realm, appId);
  // Turning registration off also stops registrations that were still waiting for their link.
  if (s.SelfRegistration.Posture !== 'ExplicitEndpoint') throw new AppError('Registration.Disabled');
  // A concurrent registration of the same name or address that slipped past the check.
  const { userId, pending } = await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        const r = await redeemToken(tx, 'registration', token);
        if (!r.ok) throw new AppError(TOKEN_ERRORS[r.reason]);
        const pending = r.record.data as PendingRegistration;
        if (s.SelfRegistration.RequireInviteCode && !pending.inviteCodeId) throw new AppError('Registration.InviteCodeRequired');
        const { id } = await insertUser(tx, ctx.realm, {
          userName: pending.userName,
          email: pending.email,
          firstname: pending.firstname,
          lastname: pending.lastname,
          passwordHash: pending.passwordHash,
          emailConfirmed: true,
        });
        if (pending.inviteCodeId && !(await consumeInviteCode(tx, pending.inviteCodeId, id))) throw new AppError('Registration.InviteCodeInvalid');
        return { userId: id, pending };
      }),
    'User.UserNameTaken',
    { email: 'User.EmailTaken' },
  );
  await publish(
    eventFrom(ctx, 'user.registered', userId, {
      userId,
      hasPassword: Boolean(pending.passwordHash),
      appId: pending.appId,
      inviteCode: Boolean(pending.inviteCodeId),
    }),
  );
  if (pending.inviteCodeId) await publish(eventFrom(ctx, 'invite.code-redeemed', pending.inviteCodeId, { appId: pending.appId, userId }));
  return { outcome: await completeFirstFactor(ctx, userId, 'mail'), redirect: pending.redirect };
}

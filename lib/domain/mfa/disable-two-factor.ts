import { requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { limitRate, refundRate } from '../realm-settings/rate-limit';
import { realmSettings } from '../realm-settings/realm-settings';
import { twoFactorRequired } from './policy';
import { useTotpCode } from './use-totp-code';

// POST /api/account/mfa/disable (spec 4.3): needs a current code from the authenticator (a stolen
// session alone cannot turn the second factor off). Refused with 403 while two-factor sign-in is
// required for the user (their policy, or the realm's unless they are exempt): turning it off
// would lock them into the secure-setup flow at the next sign-in, or — with a passkey, which
// counts as a secure set-up — quietly drop the second step of their password sign-in.
export async function disableTwoFactor(ctx: DomainContext, code: string): Promise<void> {
  const actor = requireUser(ctx);
  const userId = actor.userId;
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({ where: { id: userId }, select: { userName: true, twoFactorEnabled: true, twoFactorPolicy: true } });
  if (!user) throw new AppError('Auth.Unauthenticated');
  if (!user.twoFactorEnabled) throw new AppError('Mfa.NotEnabled');
  const settings = await realmSettings(ctx.realm);
  if (twoFactorRequired(user.twoFactorPolicy, settings.TwoFactor.Required)) {
    throw new AppError('Mfa.Required');
  }
  await limitRate(ctx, 'mfa-login', 'target', userId);
  const use = await useTotpCode(db, userId, code, { confirmed: true });
  if (use === 'no-authenticator') throw new AppError('Mfa.NotEnabled');
  if (use !== 'ok') {
    await publish(eventFrom(ctx, 'auth.two-factor-disable-failed', userId, { userId, userName: user.userName, success: false, reason: use }));
    throw new AppError(use === 'replayed' ? 'Mfa.CodeReplayed' : 'Mfa.InvalidCode');
  }
  await refundRate(ctx, 'mfa-login', 'target', userId); // only wrong codes count
  await db.$transaction(async (tx) => {
    await tx.totpAuthenticator.deleteMany({ where: { userId } });
    await tx.user.update({ where: { id: userId }, data: { twoFactorEnabled: false, updatedAt: new Date() } });
  });
  await publish(eventFrom(ctx, 'auth.two-factor-disabled', userId, { userId, userName: user.userName, method: 'totp' }));
}

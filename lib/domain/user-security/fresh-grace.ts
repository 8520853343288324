import type { RealmTx } from '../../db/types';
import { twoFactorRequired } from '../mfa/policy';

// The secure-setup deadline an administrator's recovery action starts (spec 4.7 "User
// administration", 5.5). After a lost device the person's TOTP or passkeys are taken away; where
// 2FA is required for them (their policy, or the realm's) and no second factor is left, they get a
// fresh grace period to set one up again, instead of an old deadline that may have passed long ago
// and would lock them out at the next sign-in.

/** now + the realm's grace days. */
export function graceDeadline(days: number, now = Date.now()): Date {
  return new Date(now + days * 86_400_000);
}

/**
 * In the caller's transaction, after the removal: sets and returns the new deadline when 2FA is
 * required for the user and they have neither TOTP nor a passkey left; otherwise changes nothing.
 */
export async function startFreshGraceIfUnsecured(
  tx: RealmTx,
  twoFactor: { Required: boolean; GracePeriodDays: number },
  userId: string,
): Promise<Date | undefined> {
  const u = await tx.user.findUniqueOrThrow({
    where: { id: userId },
    select: { twoFactorEnabled: true, twoFactorPolicy: true },
  });
  if (!twoFactorRequired(u.twoFactorPolicy, twoFactor.Required)) return undefined;
  // Counted on its own: Prisma's `_count` of a relation counts every user's passkeys (a full scan).
  if (u.twoFactorEnabled || (await tx.passkey.count({ where: { userId } })) > 0) return undefined;
  const dueAt = graceDeadline(twoFactor.GracePeriodDays);
  await tx.user.update({ where: { id: userId }, data: { secureSetupDueAt: dueAt } });
  return dueAt;
}

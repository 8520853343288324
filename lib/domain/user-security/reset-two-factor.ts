import { requirePermission } from '../../authz/require-permission';
import { randomToken } from '../../crypto/tokens';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { realmSettings } from '../realm-settings/realm-settings';
import { assertCanManageUsers } from '../users/can-manage';
import { requireLiveUserRow } from '../users/repo';
import { startFreshGraceIfUnsecured } from './fresh-grace';
import { loadSecurityInfo, type SecurityInfo } from './security-info';
import { daysUntil, mailSecurityNotice } from './security-notice';

/**
 * DELETE /api/admin/users/{id}/mfa (spec 4.7 "User administration"): recovery after a lost phone.
 * Turns TOTP off and removes the authenticator (a setup in progress too), and changes the security
 * stamp. Where 2FA is required for the person and no passkey is left, a fresh grace period starts
 * (fresh-grace.ts). Needs user:write and every permission the person holds (no escalation: taking
 * an administrator's second factor away weakens their account), checked in the transaction that
 * writes. Idempotent: with nothing to reset it changes nothing, publishes nothing and mails nothing.
 */
export async function resetTwoFactor(ctx: DomainContext, id: string): Promise<SecurityInfo> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  const user = await requireLiveUserRow(db, id);
  const { TwoFactor } = await realmSettings(ctx.realm);
  const reset = await db.$transaction(async (tx) => {
    await assertCanManageUsers(ctx, tx, [id]);
    const row = await tx.user.findUniqueOrThrow({ where: { id }, select: { twoFactorEnabled: true, totp: { select: { confirmedAt: true } } } });
    if (!row.twoFactorEnabled && !row.totp) return null;
    await tx.totpAuthenticator.deleteMany({ where: { userId: id } });
    await tx.user.update({ where: { id }, data: { twoFactorEnabled: false, securityStamp: randomToken(16), updatedAt: new Date() } });
    const graceDueAt = await startFreshGraceIfUnsecured(tx, TwoFactor, id);
    return { hadAuthenticator: Boolean(row.totp?.confirmedAt), graceDueAt };
  });
  if (reset) {
    await publish(
      eventFrom(ctx, 'user.two-factor-reset', id, {
        userId: id,
        hadAuthenticator: reset.hadAuthenticator,
        ...(reset.graceDueAt ? { graceDueAt: reset.graceDueAt.toISOString() } : {}),
      }),
    );
    await mailSecurityNotice(ctx, user, { kind: 'two-factor-reset', graceDays: daysUntil(reset.graceDueAt) });
  }
  return loadSecurityInfo(ctx, db, id);
}

import { requirePermission } from '../../authz/require-permission';
import { randomToken } from '../../crypto/tokens';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { toPasskeyDto, validPasskeysOf, type PasskeyDto } from '../passkeys/repo';
import { realmSettings } from '../realm-settings/realm-settings';
import { assertCanManageUsers } from '../users/can-manage';
import { requireLiveUserRow, requireUserRecord } from '../users/repo';
import { startFreshGraceIfUnsecured } from './fresh-grace';
import { loadSecurityInfo, type SecurityInfo } from './security-info';
import { daysUntil, mailSecurityNotice } from './security-notice';

// A person's passkeys as administrators see and remove them (spec 4.7 "User administration"):
// recovery after a lost or stolen device. Unlike the person's own removal (delete-passkey.ts) the
// last-way-to-sign-in rule does not hold here: a lost authenticator is a credential someone else
// may now hold, and the administrator can mail a sign-in link afterwards (magic-link route). The
// console says so before it removes someone's only way in.

/** GET /api/admin/users/{id}/passkeys: the passkeys valid for the realm's current RP ID, oldest first. */
export async function listUserPasskeys(ctx: DomainContext, id: string): Promise<PasskeyDto[]> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  await requireUserRecord(db, id);
  return (await validPasskeysOf(db, ctx, id)).map(toPasskeyDto);
}

/**
 * DELETE /api/admin/users/{id}/passkeys (all of them, idempotent) and .../passkeys/{passkeyId} (one;
 * 404 Passkey.NotFound when it is not this person's). Needs user:write and every permission the
 * person holds, checked in the transaction; changes the security stamp, and starts a fresh grace
 * period where 2FA is required and no second factor is left.
 */
export async function removeUserPasskeys(ctx: DomainContext, id: string, passkeyId?: string): Promise<SecurityInfo> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  const user = await requireLiveUserRow(db, id);
  const { TwoFactor } = await realmSettings(ctx.realm);
  const removed = await db.$transaction(async (tx) => {
    await assertCanManageUsers(ctx, tx, [id]);
    let count: number;
    if (passkeyId !== undefined) {
      const found = await tx.passkey.findFirst({ where: { id: passkeyId, userId: id }, select: { id: true } });
      if (!found) throw new AppError('Passkey.NotFound');
      await tx.passkey.delete({ where: { id: found.id } });
      count = 1;
    } else {
      count = (await tx.passkey.deleteMany({ where: { userId: id } })).count;
    }
    if (count === 0) return null;
    await tx.user.update({ where: { id }, data: { securityStamp: randomToken(16), updatedAt: new Date() } });
    return { count, graceDueAt: await startFreshGraceIfUnsecured(tx, TwoFactor, id) };
  });
  if (removed) {
    await publish(
      eventFrom(ctx, 'user.passkeys-removed', id, {
        userId: id,
        count: removed.count,
        ...(passkeyId !== undefined ? { passkeyId } : {}),
        ...(removed.graceDueAt ? { graceDueAt: removed.graceDueAt.toISOString() } : {}),
      }),
    );
    await mailSecurityNotice(ctx, user, { kind: 'passkeys-removed', count: removed.count, graceDays: daysUntil(removed.graceDueAt) });
  }
  return loadSecurityInfo(ctx, db, id);
}

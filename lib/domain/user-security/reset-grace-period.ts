import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { realmSettings } from '../realm-settings/realm-settings';
import { assertCanManageUsers } from '../users/can-manage';
import { requireLiveUserRow } from '../users/repo';
import { graceDeadline } from './fresh-grace';
import { loadSecurityInfo, type SecurityInfo } from './security-info';

// The secure-setup grace period of one user (spec 4.7 "User administration", 5.5). Each change
// needs user:write and every permission the user holds (no escalation: exempting an administrator
// from 2FA, or extending their deadline, weakens their account).

/** POST /api/admin/users/{id}/grace/reset: a fresh deadline, now + the realm's grace days. */
export async function resetGracePeriod(ctx: DomainContext, id: string): Promise<SecurityInfo> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  await requireLiveUserRow(db, id);
  const days = (await realmSettings(ctx.realm)).TwoFactor.GracePeriodDays;
  const dueAt = graceDeadline(days);
  await db.$transaction(async (tx) => {
    await assertCanManageUsers(ctx, tx, [id]);
    await tx.user.update({ where: { id }, data: { secureSetupDueAt: dueAt, updatedAt: new Date() } });
  });
  await publish(eventFrom(ctx, 'user.grace-period-reset', id, { userId: id, days, dueAt: dueAt.toISOString() }));
  return loadSecurityInfo(ctx, db, id);
}

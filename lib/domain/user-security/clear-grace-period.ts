import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { assertCanManageUsers } from '../users/can-manage';
import { requireLiveUserRow } from '../users/repo';

// The secure-setup grace period of one user (spec 4.7 "User administration", 5.5). Each change
// needs user:write and every permission the user holds (no escalation: exempting an administrator
// from 2FA, or extending their deadline, weakens their account).

/** DELETE /api/admin/users/{id}/grace: no deadline; the next sign-in starts a fresh grace period. */
export async function clearGracePeriod(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  await requireLiveUserRow(db, id);
  await db.$transaction(async (tx) => {
    await assertCanManageUsers(ctx, tx, [id]);
    await tx.user.update({ where: { id }, data: { secureSetupDueAt: null, updatedAt: new Date() } });
  });
  await publish(eventFrom(ctx, 'user.grace-period-cleared', id, { userId: id }));
}

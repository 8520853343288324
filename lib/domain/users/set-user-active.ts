import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { revokeUserSessions } from '../sessions/repo';
import { assertCanManageUsers } from './can-manage';
import { assertNotSelf } from './guard-rails';
import { assertAdministratorsRemain } from '../groups/last-administrator';
import { requireLiveUserRow, requireUserRow, withHasPassword, type UserRow } from './repo';

// PUT /api/user/{id}/active (spec 4.7). Deactivation ends every session of the user at once; it is
// refused for oneself and for the last active administrator. Setting the current value is a no-op.
export async function setUserActive(ctx: DomainContext, id: string, isActive: boolean): Promise<UserRow> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  const current = await requireLiveUserRow(db, id);
  if (current.isActive === isActive) return (await withHasPassword(db, [current]))[0];
  if (!isActive) assertNotSelf(ctx, [id]);
  await db.$transaction(async (tx) => {
    await assertCanManageUsers(ctx, tx, [id]);
    if (!isActive) await assertAdministratorsRemain(tx, { removedUserIds: [id] });
    await tx.user.update({ where: { id }, data: { isActive, updatedAt: new Date() } });
  });
  if (!isActive) await revokeUserSessions(db, id);
  await publish(eventFrom(ctx, isActive ? 'user.activated' : 'user.deactivated', id, { userId: id }));
  return requireUserRow(db, id);
}

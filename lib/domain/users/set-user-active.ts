import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { endSignInsIn } from '../sessions/end-sign-ins';
import { assertCanManageUsers } from './can-manage';
import { assertNotSelf } from './guard-rails';
import { assertAdministratorsRemain } from '../groups/last-administrator';
import { requireLiveUserRow, requireUserRow, withHasPassword, type UserRow } from './repo';

// PUT /api/user/{id}/active (spec 4.7). Deactivation ends every way the user is signed in (browser
// sessions and the OAuth engine's grants and tokens) in the transaction that deactivates, so a
// reactivation brings back no refresh token from before; it is refused for oneself and for the last
// active administrator. Setting the current value is a no-op.
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
    if (!isActive) await endSignInsIn(tx, id);
  });
  await publish(eventFrom(ctx, isActive ? 'user.activated' : 'user.deactivated', id, { userId: id }));
  return requireUserRow(db, id);
}

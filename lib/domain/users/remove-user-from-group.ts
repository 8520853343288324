import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { guardGrantChange, type GrantChange } from '../groups/grant-change-guard';
import { assertAdministratorsRemain } from '../groups/last-administrator';
import { requireUserRecord } from './repo';

// DELETE /api/user/{id}/groups/{groupId} (spec 4.7): removes a direct membership only; inherited
// ones end by changing the nesting. Taking away permissions one does not hold is refused like
// granting them (groups/grant-change-guard.ts), and the last active administrator cannot leave Administrators.
export async function removeUserFromGroup(ctx: DomainContext, userId: string, groupId: string): Promise<void> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  await requireUserRecord(db, userId);
  const key = { groupId_userId: { groupId, userId } };
  const change = { permission: 'user:write', principals: [{ kind: 'user', id: userId }] as const } satisfies GrantChange;
  await db.$transaction((tx) =>
    guardGrantChange(ctx, tx, change, async () => {
      if (!(await tx.groupMember.findUnique({ where: key, select: { userId: true } }))) throw new AppError('Membership.NotFound');
      await assertAdministratorsRemain(tx, { removedMembership: { userId, groupId } });
      await tx.groupMember.deleteMany({ where: { groupId, userId } });
    }),
  );
  await publish(eventFrom(ctx, 'membership.removed', userId, { userId, groupId }));
}

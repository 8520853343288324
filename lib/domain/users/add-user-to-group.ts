import { requirePermission } from '../../authz/require-permission';
import { validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../context';
import { assertCanConfer, conferredByGroups } from '../groups/no-escalation';
import { requireLiveUserRow } from './repo';

// POST /api/user/{id}/groups { GroupId } (spec 4.7, CONTRACT.md). Idempotent: adding a member again
// answers the existing membership and publishes nothing.

export type Membership = { UserId: string; GroupId: string; GroupName: string; CreatedAt: Date };

export async function addUserToGroup(ctx: DomainContext, userId: string, groupId: string): Promise<Membership> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  await requireLiveUserRow(db, userId);
  const group = await db.group.findUnique({ where: { id: groupId }, select: { id: true, name: true } });
  if (!group) throw validationError({ GroupId: ['No group has this id.'] });
  await assertCanConfer(ctx, await conferredByGroups(db, [groupId]));

  const key = { groupId_userId: { groupId, userId } };
  const existing = await db.groupMember.findUnique({ where: key, select: { createdAt: true } });
  if (existing) return { UserId: userId, GroupId: groupId, GroupName: group.name, CreatedAt: existing.createdAt };
  const created = await db.groupMember.upsert({ where: key, update: {}, create: { groupId, userId }, select: { createdAt: true } });
  await publish(eventFrom(ctx, 'membership.added', userId, { userId, groupId }));
  return { UserId: userId, GroupId: groupId, GroupName: group.name, CreatedAt: created.createdAt };
}

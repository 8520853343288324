import { requirePermission } from '../../authz/require-permission';
import { validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { guardGrantChange, type GrantChange } from '../groups/grant-change-guard';
import { requireLiveUserRow } from './repo';

// POST /api/user/{id}/groups { GroupId } (spec 4.7, CONTRACT.md). Idempotent: adding a member again
// answers the existing membership and publishes nothing. The member holds what the group confers:
// the guard (groups/grant-change-guard.ts) checks the caller holds it, on the state that commits.

export type Membership = { UserId: string; GroupId: string; GroupName: string; CreatedAt: Date };

export async function addUserToGroup(ctx: DomainContext, userId: string, groupId: string): Promise<Membership> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  await requireLiveUserRow(db, userId);
  const key = { groupId_userId: { groupId, userId } };
  const change = { permission: 'user:write', principals: [{ kind: 'user', id: userId }] as const } satisfies GrantChange;
  const { group, createdAt, added } = await db.$transaction((tx) =>
    guardGrantChange(ctx, tx, change, async () => {
      const group = await tx.group.findUnique({ where: { id: groupId }, select: { id: true, name: true } });
      if (!group) throw validationError({ GroupId: ['No group has this id.'] });
      const existing = await tx.groupMember.findUnique({ where: key, select: { createdAt: true } });
      if (existing) return { group, createdAt: existing.createdAt, added: false };
      const created = await tx.groupMember.create({ data: { groupId, userId }, select: { createdAt: true } });
      return { group, createdAt: created.createdAt, added: true };
    }),
  );
  if (added) await publish(eventFrom(ctx, 'membership.added', userId, { userId, groupId }));
  return { UserId: userId, GroupId: groupId, GroupName: group.name, CreatedAt: createdAt };
}

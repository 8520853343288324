import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { assertAdministratorsRemain } from './last-administrator';
import type { RealmTx } from '../../db/types';
import { guardGrantChange, membersOf, type GrantChange } from './grant-change-guard';
import { requireGroupRow, type GroupRow } from './repo';

// DELETE /api/group/{id} (spec 4.7): removes the group with its memberships, role links and nesting
// edges (both directions). The built-in Administrators group cannot be deleted, nor a group nested
// in it whose members are the last administrators; nor, by someone who does not hold them, a group
// conferring Gatehouse permissions: its members, and members of groups nested in it, lose what it
// confers (grant-change-guard.ts).
export async function deleteGroup(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'authorization-group:write');
  const db = await realmDb(ctx.realm);
  let group: GroupRow | undefined;
  // Its direct members' rows go: they are declared; members of groups nested in it the guard finds.
  const change = { permission: 'authorization-group:write', principals: (tx: RealmTx) => membersOf(tx, [id]) } satisfies GrantChange;
  await db.$transaction((tx) =>
    guardGrantChange(ctx, tx, change, async () => {
      group = await requireGroupRow(tx, id);
      if (group.isBuiltIn) throw new AppError('Group.BuiltIn');
      await assertAdministratorsRemain(tx, { deletedGroupId: id });
      await tx.groupMember.deleteMany({ where: { groupId: id } });
      // Service-account memberships have no foreign key to Group, so they do not cascade.
      await tx.serviceAccountGroup.deleteMany({ where: { groupId: id } });
      await tx.groupRole.deleteMany({ where: { groupId: id } });
      await tx.groupParent.deleteMany({ where: { OR: [{ childId: id }, { parentId: id }] } });
      await tx.group.delete({ where: { id } });
    }),
  );
  group = group!;
  await publish(
    eventFrom(ctx, 'group.deleted', id, { groupId: id, memberCount: group._count.members, childCount: group.children.length, roleCount: group.roles.length }),
  );
}

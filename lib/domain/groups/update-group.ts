import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { toJsonList } from '../../db/json-list';
import { optionalText, patchList } from '../merge-patch';
import { BUILT_IN_IDS } from '../built-in-ids';
import { assertAdministratorsRemain } from './last-administrator';
import { ALL_APPS, normalizeBoundTo } from './bound-to';
import { findCycle } from './graph';
import { loadParentMap } from './graph-repo';
import { guardGrantChange } from './grant-change-guard';
import { assertReferencesExist, requireGroupRow, type GroupRow } from './repo';
import type { UpdateGroupInput } from './schemas';

// PUT /api/group/{id} (spec 4.7, 4.9): full replace of Name, Description, RoleIds and
// ParentGroupIds; BoundTo is merge-patch (absent or null unchanged, [] dormant). Nesting must stay
// acyclic. The built-in Administrators group keeps its name, the realm-admin role and BoundTo ["*"]
// (anything else could lock every administrator out of the realm).
export async function updateGroup(ctx: DomainContext, id: string, input: UpdateGroupInput): Promise<GroupRow> {
  await requirePermission(ctx, 'authorization-group:write');
  const db = await realmDb(ctx.realm);
  const roleIds = patchList(input.RoleIds) ?? [];
  const parentIds = patchList(input.ParentGroupIds) ?? [];
  const boundTo = input.BoundTo == null ? undefined : normalizeBoundTo(input.BoundTo);
  let current: GroupRow | undefined;
  // Roles, parents and BoundTo decide what the group's members hold: the guard checks the result.
  await onUniqueViolation(
    () =>
      db.$transaction((tx) =>
        guardGrantChange(ctx, tx, { permission: 'authorization-group:write' }, async () => {
          current = await requireGroupRow(tx, id);
          if (current.isBuiltIn) assertBuiltInKept(current, input.Name, roleIds, boundTo);
          const addedRoles = roleIds.filter((r) => !current!.roles.some((x) => x.roleId === r));
          const addedParents = parentIds.filter((p) => !current!.parents.some((x) => x.parentId === p));
          const parentsChanged = addedParents.length > 0 || current.parents.some((x) => !parentIds.includes(x.parentId));
          await assertReferencesExist(tx, { roleIds, parentIds, boundTo });
          const cycle = findCycle(await loadParentMap(tx), id, parentIds);
          if (cycle) await throwCycle(tx, cycle);
          if (parentsChanged) await assertAdministratorsRemain(tx, { reparented: { groupId: id, parentIds } });
          await tx.group.update({
            where: { id },
            data: {
              name: input.Name,
              nameNormalized: input.Name.toLowerCase(),
              description: optionalText(input.Description),
              boundTo: boundTo === undefined ? undefined : toJsonList(boundTo),
              updatedAt: new Date(),
            },
          });
          await tx.groupRole.deleteMany({ where: { groupId: id, roleId: { notIn: roleIds } } });
          if (addedRoles.length) await tx.groupRole.createMany({ data: addedRoles.map((roleId) => ({ groupId: id, roleId })) });
          await tx.groupParent.deleteMany({ where: { childId: id, parentId: { notIn: parentIds } } });
          if (addedParents.length) await tx.groupParent.createMany({ data: addedParents.map((parentId) => ({ childId: id, parentId })) });
        }),
      ),
    'Group.NameTaken',
  );
  await publish(
    eventFrom(ctx, 'group.updated', id, {
      groupId: id,
      renamed: input.Name !== current!.name,
      boundTo,
      roleCount: roleIds.length,
      parentCount: parentIds.length,
    }),
  );
  return requireGroupRow(db, id);
}

function assertBuiltInKept(current: GroupRow, name: string, roleIds: string[], boundTo: string[] | undefined): void {
  if (name !== current.name) throw new AppError('Group.BuiltIn', { errors: { Name: ['The built-in group cannot be renamed.'] } });
  if (!roleIds.includes(BUILT_IN_IDS.realmAdminRole)) {
    throw new AppError('Group.BuiltIn', { errors: { RoleIds: ['The built-in group always keeps the realm administrator role.'] } });
  }
  if (boundTo && !(boundTo.length === 1 && boundTo[0] === ALL_APPS)) {
    throw new AppError('Group.BuiltIn', { errors: { BoundTo: ['The built-in group is always bound to "*".'] } });
  }
}

async function throwCycle(tx: RealmTx, cycle: string[]): Promise<never> {
  const names = new Map((await tx.group.findMany({ where: { id: { in: cycle } }, select: { id: true, name: true } })).map((g) => [g.id, g.name]));
  const chain = cycle.map((c) => names.get(c) ?? c).join(' > ');
  throw new AppError('Group.Cycle', { detail: `The nesting would make a cycle: ${chain}.`, errors: { ParentGroupIds: [`Cycle: ${chain}`] } });
}

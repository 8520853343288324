import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { toJsonList } from '../../db/json-list';
import { optionalText, patchList } from '../merge-patch';
import { ALL_APPS, normalizeBoundTo } from './bound-to';
import { lockPermissionGraph } from './graph-repo';
import { assertReferencesExist, requireGroupRow, type GroupRow } from './repo';
import type { CreateGroupInput } from './schemas';

// POST /api/group (spec 4.7, CONTRACT.md): Name, Description?, BoundTo? (default ["*"]), RoleIds?,
// ParentGroupIds?. A new group has no members and no children, so it can neither close a nesting
// cycle nor hand anybody permissions yet; both are checked when members or nesting are added.
export async function createGroup(ctx: DomainContext, input: CreateGroupInput): Promise<GroupRow> {
  await requirePermission(ctx, 'authorization-group:write');
  const roleIds = patchList(input.RoleIds) ?? [];
  const parentIds = patchList(input.ParentGroupIds) ?? [];
  const boundTo = normalizeBoundTo(input.BoundTo ?? [ALL_APPS]);
  const db = await realmDb(ctx.realm);
  const id = newId();
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        // Under the permission-graph lock, so a role or parent deleted concurrently is either seen as
        // missing (400) or deleted after this commits (its links go with it), never half-referenced.
        await lockPermissionGraph(tx);
        await assertReferencesExist(tx, { roleIds, parentIds, boundTo });
        await tx.group.create({
          data: {
            id,
            name: input.Name,
            nameNormalized: input.Name.toLowerCase(),
            description: optionalText(input.Description),
            boundTo: toJsonList(boundTo),
            roles: { create: roleIds.map((roleId) => ({ roleId })) },
            parents: { create: parentIds.map((parentId) => ({ parentId })) },
          },
        });
      }),
    'Group.NameTaken',
  );
  await publish(eventFrom(ctx, 'group.created', id, { groupId: id, boundTo, roleCount: roleIds.length, parentCount: parentIds.length }));
  return requireGroupRow(db, id);
}

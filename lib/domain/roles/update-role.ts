import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { guardGrantChange } from '../groups/grant-change-guard';
import { optionalText } from '../merge-patch';
import { checkedPermissions, requireRoleRow, type RoleRow } from './repo';
import type { UpdateRoleInput } from './schemas';

// PUT /api/role/{id} (spec 4.7): full replace, including the permission set and the App. The
// built-in realm-administrator role cannot be changed. Permissions a role hands to or takes from
// the members of its groups must be held by the caller (groups/grant-change-guard.ts).
export async function updateRole(ctx: DomainContext, id: string, input: UpdateRoleInput): Promise<RoleRow> {
  await requirePermission(ctx, 'permission-role:write');
  const db = await realmDb(ctx.realm);
  let current: RoleRow | undefined;
  let appSlug = '';
  // The role's groups and their members are read by the guard on the state that commits, whether
  // or not the role is in any group now (a concurrent group update may be adding it).
  await onUniqueViolation(
    () =>
      db.$transaction((tx) =>
        guardGrantChange(ctx, tx, { permission: 'permission-role:write' }, async () => {
          current = await requireRoleRow(tx, id);
          if (current.isBuiltIn) throw new AppError('Role.BuiltIn');
          const checked = await checkedPermissions(tx, input.AppId, input.Permissions);
          appSlug = checked.appSlug;
          await tx.permissionRole.update({
            where: { id },
            data: {
              name: input.Name,
              nameNormalized: input.Name.toLowerCase(),
              description: optionalText(input.Description),
              appId: input.AppId,
              permissions: checked.json,
              updatedAt: new Date(),
            },
          });
        }),
      ),
    'Role.NameTaken',
  );
  await publish(
    eventFrom(ctx, 'role.updated', id, { roleId: id, app: appSlug, appChanged: input.AppId !== current!.appId, permissionCount: input.Permissions.length }),
  );
  return requireRoleRow(db, id);
}

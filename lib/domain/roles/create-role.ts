import { requirePermission } from '../../authz/require-permission';
import { newId } from '../../crypto/tokens';
import { onUniqueViolation } from '../../db/errors';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { optionalText } from '../merge-patch';
import { checkedPermissions, requireRoleRow, type RoleRow } from './repo';
import type { CreateRoleInput } from './schemas';

// POST /api/role (spec 4.7, CONTRACT.md): Name, AppId, Permissions, Description?. Every permission
// must be in the App's catalog; the name is unique within the App. A new role is in no group, so it
// grants nobody anything until a group takes it (checked there, groups/grant-change-guard.ts).
export async function createRole(ctx: DomainContext, input: CreateRoleInput): Promise<RoleRow> {
  await requirePermission(ctx, 'permission-role:write');
  const db = await realmDb(ctx.realm);
  const id = newId();
  let appSlug = '';
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        const checked = await checkedPermissions(tx, input.AppId, input.Permissions);
        appSlug = checked.appSlug;
        await tx.permissionRole.create({
          data: {
            id,
            name: input.Name,
            nameNormalized: input.Name.toLowerCase(),
            description: optionalText(input.Description),
            appId: input.AppId,
            permissions: checked.json,
          },
        });
      }),
    'Role.NameTaken',
  );
  await publish(eventFrom(ctx, 'role.created', id, { roleId: id, app: appSlug, permissionCount: input.Permissions.length }));
  return requireRoleRow(db, id);
}

import { requirePermission } from '../../authz/require-permission';
import { isUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../context';
import { assertCanConfer } from '../groups/no-escalation';
import { parseStringList } from '../../db/json-list';
import { optionalText } from '../merge-patch';
import { checkedPermissions, requireRoleRow, type RoleRow } from './repo';
import type { UpdateRoleInput } from './schemas';

// PUT /api/role/{id} (spec 4.7): full replace, including the permission set and the App. The
// built-in realm-administrator role cannot be changed. Permissions a role hands to or takes from
// the members of its groups must be held by the caller (groups/no-escalation.ts).
export async function updateRole(ctx: DomainContext, id: string, input: UpdateRoleInput): Promise<RoleRow> {
  await requirePermission(ctx, 'permission-role:write');
  const db = await realmDb(ctx.realm);
  const current = await requireRoleRow(db, id);
  if (current.isBuiltIn) throw new AppError('Role.BuiltIn');
  const before = new Set(parseStringList(current.permissions));
  let appSlug = current.app.slug;
  try {
    await db.$transaction(async (tx) => {
      const checked = await checkedPermissions(tx, input.AppId, input.Permissions);
      appSlug = checked.appSlug;
      // Members of the role's groups gain the added permissions and lose the removed ones.
      const sameApp = checked.appSlug === current.app.slug;
      const added = sameApp ? checked.list.filter((p) => !before.has(p)) : checked.list;
      const removed = sameApp ? [...before].filter((p) => !checked.list.includes(p)) : [...before];
      if (current.groups.length) {
        await assertCanConfer(ctx, [
          { appSlug: checked.appSlug, permissions: added },
          { appSlug: current.app.slug, permissions: removed },
        ]);
      }
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
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('Role.NameTaken');
    throw e;
  }
  await publish(eventFrom(ctx, 'role.updated', id, { roleId: id, app: appSlug, appChanged: input.AppId !== current.appId, permissionCount: input.Permissions.length }));
  return requireRoleRow(db, id);
}

import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { guardGrantChange } from '../groups/grant-change-guard';
import { requireRoleRow, type RoleRow } from './repo';

// DELETE /api/role/{id} (spec 4.7): removes the role and its links to groups in one transaction.
// The built-in realm-administrator role cannot be deleted.
export async function deleteRole(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'permission-role:write');
  const db = await realmDb(ctx.realm);
  let role: RoleRow | undefined;
  // Members of its groups lose what it grants (groups/grant-change-guard.ts).
  await db.$transaction((tx) =>
    guardGrantChange(ctx, tx, { permission: 'permission-role:write' }, async () => {
      role = await requireRoleRow(tx, id);
      if (role.isBuiltIn) throw new AppError('Role.BuiltIn');
      await tx.groupRole.deleteMany({ where: { roleId: id } });
      await tx.permissionRole.delete({ where: { id } });
    }),
  );
  await publish(eventFrom(ctx, 'role.deleted', id, { roleId: id, app: role!.app.slug, groupCount: role!.groups.length }));
}

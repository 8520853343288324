import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../context';
import { assertCanConfer, conferredByRoles } from '../groups/no-escalation';
import { requireRoleRow } from './repo';

// DELETE /api/role/{id} (spec 4.7): removes the role and its links to groups in one transaction.
// The built-in realm-administrator role cannot be deleted.
export async function deleteRole(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'permission-role:write');
  const db = await realmDb(ctx.realm);
  const role = await requireRoleRow(db, id);
  if (role.isBuiltIn) throw new AppError('Role.BuiltIn');
  // Members of its groups lose what it grants (groups/no-escalation.ts).
  if (role.groups.length) await assertCanConfer(ctx, await conferredByRoles(db, [id]));
  await db.$transaction(async (tx) => {
    await tx.groupRole.deleteMany({ where: { roleId: id } });
    await tx.permissionRole.delete({ where: { id } });
  });
  await publish(eventFrom(ctx, 'role.deleted', id, { roleId: id, app: role.app.slug, groupCount: role.groups.length }));
}

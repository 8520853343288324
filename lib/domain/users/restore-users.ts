import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { assertUserCapacity } from '../entitlements/capacity';
import { assertCanManageUsers } from './can-manage';
import { requireUserRow, type UserRow } from './repo';

// POST /api/user/{id}/restore and POST /api/user/restore (spec 3.5): undoes a soft delete. Names
// and e-mail addresses stay reserved while a user is deleted, so a restore cannot clash. Restoring
// a user that is not deleted is a no-op. A user whose own deletion masked their data (anonymizedAt)
// holds nothing to restore: the whole call is refused (409 User.Anonymized). Bringing a user back
// hands them everything their groups give again, so it is the no-escalation rule's business like
// deleting them: the caller must hold all of what each restored user holds (assertCanManageUsers),
// checked in the transaction that writes; one such user refuses the whole list. Restored users count
// against the realm's MaxUsers again (409 Entitlement.Exceeded, nothing restored).

export type BulkRestoreResult = { restored: string[]; notFound: string[] };

export async function restoreUsers(ctx: DomainContext, ids: readonly string[]): Promise<BulkRestoreResult> {
  await requirePermission(ctx, 'user:write');
  const unique = [...new Set(ids)];
  const db = await realmDb(ctx.realm);
  const now = new Date();
  const { found, restored } = await db.$transaction(async (tx) => {
    const rows = await tx.user.findMany({ where: { id: { in: unique } }, select: { id: true, deletedAt: true, anonymizedAt: true } });
    if (rows.some((r) => r.anonymizedAt)) throw new AppError('User.Anonymized');
    const toRestore = rows.filter((r) => r.deletedAt).map((r) => r.id);
    await assertCanManageUsers(ctx, tx, toRestore);
    if (toRestore.length) await assertUserCapacity(tx, ctx.realm, toRestore.length);
    if (toRestore.length) await tx.user.updateMany({ where: { id: { in: toRestore } }, data: { deletedAt: null, updatedAt: now } });
    return { found: new Set(rows.map((r) => r.id)), restored: toRestore };
  });
  for (const id of restored) await publish(eventFrom(ctx, 'user.restored', id, { userId: id, bulk: unique.length > 1 }));
  return { restored: unique.filter((id) => found.has(id)), notFound: unique.filter((id) => !found.has(id)) };
}

export async function restoreUser(ctx: DomainContext, id: string): Promise<UserRow> {
  const result = await restoreUsers(ctx, [id]);
  if (result.notFound.length) throw new AppError('User.NotFound');
  return requireUserRow(await realmDb(ctx.realm), id);
}

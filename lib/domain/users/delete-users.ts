import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { endSignInsIn, type EndedSignIns } from '../sessions/end-sign-ins';
import { assertCanManageUsers } from './can-manage';
import { assertNotSelf } from './guard-rails';
import { assertAdministratorsRemain } from '../groups/last-administrator';

// DELETE /api/user/{id} and DELETE /api/user (bulk): soft delete (spec 3.5). The row stays, with
// deletedAt set, so POST …/restore can bring it back; login and session checks refuse deleted users,
// and every way they are signed in ends in the same transaction: browser sessions and the OAuth
// engine's grants, sessions, codes, refresh and access tokens, so a restore brings back no token from
// before (endSignInsIn). Permanent erasure is /api/admin/users/{id}/permanent.

export type BulkDeleteResult = { deleted: string[]; notFound: string[] };

/**
 * All or nothing: a list that names the caller, or that would remove the last active administrator,
 * is refused as a whole. Users already deleted count as deleted (the end state is the same).
 */
export async function deleteUsers(ctx: DomainContext, ids: readonly string[]): Promise<BulkDeleteResult> {
  await requirePermission(ctx, 'user:write');
  const unique = [...new Set(ids)];
  assertNotSelf(ctx, unique);
  const db = await realmDb(ctx.realm);
  const now = new Date();
  const { found, ended } = await db.$transaction(async (tx) => {
    await assertCanManageUsers(ctx, tx, unique);
    const rows = await tx.user.findMany({ where: { id: { in: unique } }, select: { id: true, deletedAt: true } });
    const toDelete = rows.filter((r) => !r.deletedAt).map((r) => r.id);
    if (toDelete.length) {
      await assertAdministratorsRemain(tx, { removedUserIds: toDelete });
      await tx.user.updateMany({ where: { id: { in: toDelete }, deletedAt: null }, data: { deletedAt: now, updatedAt: now } });
    }
    const ended = new Map<string, EndedSignIns>();
    for (const id of toDelete) ended.set(id, await endSignInsIn(tx, id));
    return { found: new Set(rows.map((r) => r.id)), ended };
  });
  for (const [id, { browserSessions, engineRecords }] of ended) {
    await publish(
      eventFrom(ctx, 'user.deleted', id, { userId: id, sessionsRevoked: browserSessions, engineRecordsRevoked: engineRecords, bulk: unique.length > 1 }),
    );
  }
  return { deleted: unique.filter((id) => found.has(id)), notFound: unique.filter((id) => !found.has(id)) };
}

export async function deleteUser(ctx: DomainContext, id: string): Promise<void> {
  const result = await deleteUsers(ctx, [id]);
  if (result.notFound.length) throw new AppError('User.NotFound');
}

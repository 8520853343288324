import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { assertScopeUnused, requireScopeRow } from './repo';

// DELETE /api/admin/oauth/scopes/{id} (spec 4.7). Built-in scopes stay (spec 2.4); a scope that
// clients still list is refused with 409 naming them, so no client is left asking for a scope the
// engine no longer knows. The check and the delete share a transaction.
export async function deleteScope(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'oauth-scope:write');
  const db = await realmDb(ctx.realm);
  const current = await requireScopeRow(db, id);
  if (current.isBuiltIn) throw new AppError('OAuthScope.BuiltIn', { detail: `${current.name} is built in and cannot be deleted.` });
  await db.$transaction(async (tx) => {
    await assertScopeUnused(tx, current.name, 'delete');
    await tx.oAuthScope.delete({ where: { id } });
  });
  await publish(eventFrom(ctx, 'oauth-scope.deleted', id, { name: current.name }));
}

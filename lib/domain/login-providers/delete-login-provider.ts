import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { forgetUpstream } from '../sessions/upstream-session';
import { requireProviderRow } from './repo';

// DELETE /api/admin/login-providers/{id}. The built-in Internal provider stays (spec 2.5). The
// provider's external links go with it (their (issuer, subject) pairs are free again); sessions it
// opened stay until they end, they just no longer offer an upstream logout, and the ID tokens kept for it are dropped.
export async function deleteLoginProvider(ctx: DomainContext, id: string): Promise<void> {
  await requirePermission(ctx, 'login-provider:write');
  const db = await realmDb(ctx.realm);
  const current = await requireProviderRow(db, id);
  if (current.isBuiltIn) throw new AppError('LoginProvider.BuiltIn');
  const links = await db.$transaction(async (tx) => {
    const removed = await tx.externalLink.deleteMany({ where: { loginProviderId: id } });
    await forgetUpstream(tx, id);
    await tx.loginProvider.delete({ where: { id } });
    return removed.count;
  });
  await publish(eventFrom(ctx, 'login-provider.deleted', id, { loginProviderId: id, flavor: current.flavor, removedLinks: links }));
}

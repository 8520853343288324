import { requirePermission } from '../../authz/require-permission';
import { getGlobalDb } from '../../db/global-db';
import { dropRealmDatabase } from '../../db/realm-databases';
import { AppError, notFound } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { invalidateRealmCache } from '../../realm/realm-cache';
import { getRealmRecordBySlug } from '../../realm/realm-store';
import type { DomainContext } from '../../realm/context';

// DELETE /api/admin/realms/{slug}[?hard=true] (spec 3.1). Soft delete deactivates and keeps the
// data; hard delete drops the tenant database (forced) and removes the global record, irreversibly.
// The control plane can be neither (it would leave the platform without administration).
export async function deleteRealm(ctx: DomainContext, slug: string, hard: boolean): Promise<void> {
  await requirePermission(ctx, 'realm:write', 'control-plane');
  const realm = await getRealmRecordBySlug(slug);
  if (!realm) throw notFound();
  if (realm.isControlPlane) throw new AppError(hard ? 'Realm.CannotDeleteControlPlane' : 'Realm.CannotDeactivateControlPlane');
  const db = await getGlobalDb();
  if (!hard) {
    await db.realm.update({ where: { id: realm.id }, data: { isActive: false, updatedAt: new Date(), revision: { increment: 1 } } });
    invalidateRealmCache();
    await publish(eventFrom(ctx, 'realm.deactivated', realm.id, { slug, via: 'delete' }));
    return;
  }
  // Hide it first so no request reaches a database being dropped, then drop, then forget.
  await db.realm.update({ where: { id: realm.id }, data: { isActive: false, revision: { increment: 1 } } });
  invalidateRealmCache();
  await dropRealmDatabase(realm.databaseName);
  await db.realm.delete({ where: { id: realm.id } });
  invalidateRealmCache();
  await publish(eventFrom(ctx, 'realm.deleted', realm.id, { slug, hard: true }));
}

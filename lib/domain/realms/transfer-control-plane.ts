import { requirePermission } from '../../authz/require-permission';
import { getGlobalDb } from '../../db/global-db';
import { getRealmDb } from '../../db/realm-pool';
import { AppError, notFound } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { invalidateRealmCache } from '../../realm/realm-cache';
import { getRealmRecordBySlug } from '../../realm/realm-store';
import type { RealmRecord } from '../../realm/realm-record';
import type { DomainContext } from '../../realm/context';
import { ensureControlPlaneApp } from './seed-realm';

// POST /api/admin/realms/{slug}/transfer-control-plane (spec 3.2). The flag moves in one global
// transaction; the target also gets the `control-plane` application so its catalog exists there.
export async function transferControlPlane(ctx: DomainContext, slug: string): Promise<RealmRecord> {
  await requirePermission(ctx, 'control-plane:realm:write', 'control-plane');
  const target = await getRealmRecordBySlug(slug);
  if (!target) throw notFound();
  if (target.isControlPlane) return target; // already the sole holder: idempotent 200
  if (!target.isActive) throw new AppError('Realm.TargetInactive');

  const targetDb = await getRealmDb(target.databaseName);
  await targetDb.$transaction(async (tx) => ensureControlPlaneApp(tx));

  const db = await getGlobalDb();
  await db.$transaction(async (tx) => {
    await tx.realm.updateMany({ where: { isControlPlane: true }, data: { isControlPlane: false, revision: { increment: 1 }, updatedAt: new Date() } });
    // Re-checked inside the transaction: the target may have been deactivated meanwhile.
    const moved = await tx.realm.updateMany({
      where: { id: target.id, isActive: true },
      data: { isControlPlane: true, revision: { increment: 1 }, updatedAt: new Date() },
    });
    if (moved.count !== 1) throw new AppError('Realm.TargetInactive');
  });
  invalidateRealmCache();
  await publish(eventFrom(ctx, 'realm.control-plane-transferred', target.id, { from: ctx.realm.slug, to: slug }));
  return (await getRealmRecordBySlug(slug))!;
}

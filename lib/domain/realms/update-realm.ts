import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import { getGlobalDb } from '../../db/global-db';
import { AppError, notFound } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { invalidateRealmCache } from '../../realm/realm-cache';
import { getRealmRecordBySlug } from '../../realm/realm-store';
import { toRealmRecord, realmInclude, type RealmRecord } from '../../realm/realm-record';
import type { DomainContext } from '../../realm/context';
import { assertNotAppAddresses, moveAppRoutes } from '../apps/app-routes';
import { checkDomains } from './domains';
import type { PatchRealmInput } from './schemas';

// PATCH /api/admin/realms/{slug} (spec 3.1, 4.8, 4.9): merge-patch of exactly DisplayName,
// Description, Domains, PrimaryDomain and IsActive. A domain may not be an App's address (409
// Realm.DomainIsAppAddress). When the primary domain changes, the Apps' addresses follow it
// (`shop.<old>` becomes `shop.<new>`, apps/app-routes.ts) in the same transaction, so each App
// keeps the subdomain its Settings name; a new address already in use refuses the update (409).
export async function updateRealm(ctx: DomainContext, slug: string, patch: PatchRealmInput): Promise<RealmRecord> {
  await requirePermission(ctx, 'realm:write', 'control-plane');
  const current = await getRealmRecordBySlug(slug);
  if (!current) throw notFound();

  if (patch.IsActive === false && current.isControlPlane) throw new AppError('Realm.CannotDeactivateControlPlane');
  const domains = patch.Domains != null ? checkDomains(patch.Domains) : current.domains;
  const primary = patch.PrimaryDomain ?? (domains.includes(current.primaryDomain) ? current.primaryDomain : undefined);
  if (!primary || !domains.includes(primary)) {
    throw new AppError('Realm.PrimaryDomainNotInDomains', { errors: { PrimaryDomain: ['PrimaryDomain must be one of Domains.'] } });
  }

  const db = await getGlobalDb();
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        await tx.realm.update({
          where: { id: current.id },
          data: {
            ...(patch.DisplayName ? { displayName: patch.DisplayName } : {}),
            // null or "" clears (spec 4.9); omitted leaves it.
            ...(patch.Description !== undefined ? { description: patch.Description || null } : {}),
            ...(typeof patch.IsActive === 'boolean' ? { isActive: patch.IsActive } : {}),
            primaryDomain: primary,
            updatedAt: new Date(),
            revision: { increment: 1 },
          },
        });
        if (patch.Domains != null) {
          await assertNotAppAddresses(tx, domains);
          await tx.realmDomain.deleteMany({ where: { realmId: current.id } });
          await tx.realmDomain.createMany({ data: domains.map((host) => ({ host, realmId: current.id })) });
        }
        if (primary !== current.primaryDomain) await moveAppRoutes(tx, current.id, current.primaryDomain, primary);
      }),
    'Realm.DomainTaken',
  );
  invalidateRealmCache();
  const record = toRealmRecord((await db.realm.findUnique({ where: { id: current.id }, include: realmInclude }))!);
  const changed = Object.keys(patch).filter((k) => patch[k as keyof PatchRealmInput] !== undefined);
  await publish(eventFrom(ctx, 'realm.updated', current.id, { slug, changed }));
  if (primary !== current.primaryDomain) {
    // Spec 2.1: a new relying-party ID invalidates every passkey of the realm. Passkey storage
    // subscribes to this event and removes them (issue 3).
    await publish(eventFrom(ctx, 'realm.primary-domain-changed', current.id, { slug }));
  }
  if (typeof patch.IsActive === 'boolean' && patch.IsActive !== current.isActive) {
    await publish(eventFrom(ctx, patch.IsActive ? 'realm.activated' : 'realm.deactivated', current.id, { slug }));
  }
  return record;
}

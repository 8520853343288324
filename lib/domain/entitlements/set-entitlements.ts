import { requirePermission } from '../../authz/require-permission';
import { getGlobalDb } from '../../db/global-db';
import { notFound } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { invalidateRealmCache } from '../../realm/realm-cache';
import type { DomainContext } from '../../realm/context';
import { parseEntitlements, type RealmEntitlementLimits } from '../../realm/realm-record';
import { getRealmRecordBySlug } from '../../realm/realm-store';
import type { EntitlementsInput } from './schemas';

// PUT /api/admin/realms/{slug}/entitlements (control plane, realm:write): replaces the realm's
// limits. The realm record carries them, so the record is dropped from the cache here and, through
// `realm.updated` and the invalidation relay, on every other instance.
export async function setRealmEntitlements(ctx: DomainContext, slug: string, input: EntitlementsInput): Promise<RealmEntitlementLimits> {
  await requirePermission(ctx, 'realm:write', 'control-plane');
  const realm = await getRealmRecordBySlug(slug);
  if (!realm) throw notFound();
  const document = JSON.stringify({ MaxUsers: input.MaxUsers, MaxOAuthClients: input.MaxOAuthClients });
  const db = await getGlobalDb();
  await db.realm.update({ where: { id: realm.id }, data: { entitlements: document, updatedAt: new Date(), revision: { increment: 1 } } });
  invalidateRealmCache();
  await publish(eventFrom(ctx, 'realm.updated', realm.id, { slug, changed: ['Entitlements'] }));
  return parseEntitlements(document);
}

import { REALM_ADMIN } from '../../authz/catalog';
import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import type { DomainContext } from '../../realm/context';
import { derivedStores } from './derived-stores';
import type { RebuildReport } from './schemas';

// POST /api/admin/projections/rebuild (spec 4.7 "Maintenance"): recomputes every derived store of the
// realm: the App routes are re-derived from the Apps' settings (a transaction of the global store),
// the caches of this realm are dropped here, and the event tells other instances (through the
// invalidation relay, lib/startup/start-up.ts) to drop theirs. Answers what changed and what is left.
export async function rebuildProjections(ctx: DomainContext): Promise<RebuildReport> {
  await requirePermission(ctx, REALM_ADMIN);
  const stores = [];
  for (const store of derivedStores()) {
    const changes = await store.rebuild(ctx.realm);
    const differences = await store.check(ctx.realm);
    stores.push({ Name: store.name, Changes: changes, Consistent: differences.length === 0, Differences: differences });
  }
  const changes = stores.reduce((n, s) => n + s.Changes.length, 0);
  await publish(eventFrom(ctx, 'projections.rebuilt', ctx.realm.id, { stores: stores.map((s) => s.Name), changes }));
  return { Consistent: stores.every((s) => s.Consistent), Stores: stores };
}

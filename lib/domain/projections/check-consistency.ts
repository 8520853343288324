import { REALM_ADMIN } from '../../authz/catalog';
import { requirePermission } from '../../authz/require-permission';
import type { DomainContext } from '../../realm/context';
import { derivedStores } from './derived-stores';
import type { ConsistencyReport } from './schemas';

// GET /api/admin/projections/consistency-check (spec 4.7 "Maintenance"): compares every derived store
// of the realm with what it is derived from, changing nothing (a cache is peeked, never filled).
export async function checkConsistency(ctx: DomainContext): Promise<ConsistencyReport> {
  await requirePermission(ctx, REALM_ADMIN);
  const stores = [];
  for (const store of derivedStores()) {
    const differences = await store.check(ctx.realm);
    stores.push({ Name: store.name, Consistent: differences.length === 0, Differences: differences });
  }
  return { Consistent: stores.every((s) => s.Consistent), Stores: stores };
}

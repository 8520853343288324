import { deleteInBatches, type BatchLimits } from './batched-delete';
import type { RealmDb } from './types';

// The engine's rows (lib/oidc/adapter.ts) past their expiry: the adapter already treats them as absent, so
// deleting them changes no answer. Rows without an expiry are the engine's to remove.

/** Deletes expired OidcPayload rows of a realm; the purge job calls it. */
export async function purgeExpiredEngineRows(db: RealmDb, now: Date, limits: BatchLimits, stopped?: () => boolean): Promise<number> {
  const expired = { expiresAt: { lt: now } };
  return deleteInBatches(
    limits,
    (take) => db.oidcPayload.findMany({ where: expired, select: { model: true, id: true }, take }),
    async (keys) => {
      // One statement per model (`id IN (...)`), not one OR per row, which SQLite's expression depth limit would refuse.
      const byModel = new Map<string, string[]>();
      for (const k of keys) byModel.set(k.model, [...(byModel.get(k.model) ?? []), k.id]);
      let deleted = 0;
      for (const [model, ids] of byModel) deleted += (await db.oidcPayload.deleteMany({ where: { ...expired, model, id: { in: ids } } })).count;
      return deleted;
    },
    stopped,
  );
}

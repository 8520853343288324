import { REALM_ADMIN } from '../../authz/catalog';
import { requirePermission } from '../../authz/require-permission';
import { getGlobalDb } from '../../db/global-db';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { invalidateRealmCache } from '../../realm/realm-cache';
import { realmDb, type DomainContext } from '../../realm/context';
import { rotateSigningKeys, type RotatedKeys } from './signing-keys';

/**
 * Rotates the realm's token-signing keys now (`gatehouse keys rotate`): new RS256 and ES256 keys
 * sign from here on, the retired ones stay published for the overlap so tokens they signed still
 * verify. Running engines must rebuild to sign with the new keys:
 * - in this process and, through the Redis invalidation relay, every other instance: the
 *   `signing-key.rotated` event drops the realm's engine and its cached verification keys;
 * - without Redis: the realm's revision is bumped in the global store, and an instance rebuilds the
 *   engine when its cached realm record (kept at most a minute) shows the new revision.
 */
export async function rotateRealmSigningKeys(ctx: DomainContext): Promise<RotatedKeys> {
  await requirePermission(ctx, REALM_ADMIN);
  const rotated = await rotateSigningKeys(await realmDb(ctx.realm));
  const global = await getGlobalDb();
  await global.realm.update({ where: { id: ctx.realm.id }, data: { revision: { increment: 1 } } });
  // The local realm cache must not keep the old revision, or the engine rebuilt by the event below
  // would be rebuilt once more when the cache entry expires.
  invalidateRealmCache();
  await publish(eventFrom(ctx, 'signing-key.rotated', ctx.realm.id, { keyIds: rotated.added.map((k) => k.id), retiredKeyIds: rotated.retired }));
  return rotated;
}

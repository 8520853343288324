import { LRUCache } from 'lru-cache';
import { settings } from '../config/env';
import { shared } from '../runtime/shared';
import type { RealmRecord } from './realm-record';

// Per-process cache of host -> realm. Positive entries are invalidated on every realm change (and
// expire after GATEHOUSE_REALM_CACHE_SECONDS, a minute by default, as the safety net when several
// processes run without Redis). Unknown hosts go
// to a small bounded negative cache: that key space is attacker-chosen, so it must not grow.
type Cache = {
  byHost: LRUCache<string, RealmRecord>;
  unknownHosts: LRUCache<string, true>;
  generation: number;
};

export function realmCache(): Cache {
  return shared('realm-cache', () => ({
    byHost: new LRUCache<string, RealmRecord>({ max: 20_000, ttl: settings().realmCacheSeconds * 1000 }),
    unknownHosts: new LRUCache<string, true>({ max: 2_000, ttl: 10_000 }),
    generation: 0,
  }));
}

/** Forgets every cached realm (called after any realm change, locally or from another instance). */
export function invalidateRealmCache(): void {
  const c = realmCache();
  c.byHost.clear();
  c.unknownHosts.clear();
  c.generation++;
}

import { LRUCache } from 'lru-cache';
import { subscribe } from '../events/bus';
import { shared } from '../runtime/shared';
import type { EngineClientMetadata } from './client-metadata';
import { inEventAreas, type EventArea } from '../events/catalog';

// Client lookups happen on every token request; the metadata changes only through the admin API,
// credentials and registration, whose events clear it here (and on other instances through the
// invalidation relay). The short TTL bounds staleness should an event be lost.
type Cache = LRUCache<string, Promise<EngineClientMetadata | null>>;

export function clientCache(): Cache {
  return shared('oidc.client-cache', () => new LRUCache<string, Promise<EngineClientMetadata | null>>({ max: 10_000, ttl: 30_000 }));
}

const CLIENT_EVENT_AREAS: readonly EventArea[] = ['oauth-client', 'service-account', 'manifest'];

/** Drops one realm's cached clients: a change in one realm must not empty every realm's cache. */
export function dropRealmClients(realmId: string): void {
  const cache = clientCache();
  const prefix = `${realmId}:`;
  for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
}

export function registerClientCacheInvalidation(): void {
  shared('oidc.client-cache.subscriber', () =>
    subscribe(async (event) => {
      if (inEventAreas(event.type, CLIENT_EVENT_AREAS)) dropRealmClients(event.realmId);
    }),
  );
}

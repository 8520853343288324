import { LRUCache } from 'lru-cache';
import { subscribe } from '../events/bus';
import { shared } from '../runtime/shared';
import type { EngineClientMetadata } from './client-metadata';

// Client lookups happen on every token request; the metadata changes only through the admin API,
// credentials and registration, whose events clear it here (and on other instances through the
// invalidation relay). The short TTL bounds staleness should an event be lost.
type Cache = LRUCache<string, Promise<EngineClientMetadata | null>>;

export function clientCache(): Cache {
  return shared('oidc.client-cache', () => new LRUCache<string, Promise<EngineClientMetadata | null>>({ max: 10_000, ttl: 30_000 }));
}

const CLIENT_EVENTS = /^(oauth-client|service-account)\./;

export function registerClientCacheInvalidation(): void {
  shared('oidc.client-cache.subscriber', () =>
    subscribe(async (event) => {
      if (CLIENT_EVENTS.test(event.type)) clientCache().clear();
    }),
  );
}

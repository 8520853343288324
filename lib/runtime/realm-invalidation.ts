import { Redis } from 'ioredis';
import { settings } from '../config/env';
import { logError } from '../log/logger';
import { redisClient, redisReady, watchRedis } from './redis';
import { shared } from './shared';

// The caches of several instances (realm, realm settings, group graph, the OAuth engine's) stay
// coherent through Redis: a change on one instance is announced on a channel, and every other
// instance drops the caches registered here when it hears it (docs/architecture.md "Scaling out").
// Which changes are announced is start-up's business (lib/startup/start-up.ts).
const CHANNEL = 'gatehouse:realm-changed';

/** What to drop: one realm's entries, or everything (null: a change of realms themselves). */
export type RelayScope = string | null;

/** The caches to drop when another instance reports a change. */
const onRelayedChange = shared('realm-relay.extra', (): ((realmId: RelayScope) => void)[] => []);

export function alsoInvalidateOnRelay(drop: (realmId: RelayScope) => void): void {
  if (!onRelayedChange.includes(drop)) onRelayedChange.push(drop);
}

/** An announcement: its sender and the realm it concerns. A bare instance id (older releases) drops everything. */
export function readAnnouncement(message: string): { origin: string; realmId: RelayScope } {
  try {
    const parsed = JSON.parse(message) as { origin?: unknown; realmId?: unknown };
    if (parsed && typeof parsed.origin === 'string') return { origin: parsed.origin, realmId: typeof parsed.realmId === 'string' ? parsed.realmId : null };
  } catch {
    // not JSON: an older release's bare instance id
  }
  return { origin: message, realmId: null };
}

/**
 * Listens for other instances' announcements (REDIS_URL); answers the function that announces a
 * change of this instance, or null without Redis (one instance has nobody to tell). A change names
 * its realm, so the other instances drop that realm's entries only and keep every other realm's.
 */
export async function startRealmInvalidationRelay(): Promise<((realmId: RelayScope) => Promise<void>) | null> {
  const url = settings().redisUrl;
  if (!url) return null;
  const instanceId = shared('instance-id', () => crypto.randomUUID());
  await shared('realm-relay', async () => {
    const sub = new Redis(url, { maxRetriesPerRequest: null });
    // Announcements made while this subscriber was cut off are lost: drop everything once it is back.
    watchRedis(sub, 'cache relay', () => {
      for (const drop of onRelayedChange) drop(null);
    });
    // Not awaited: a Redis that is down must not hold the start-up (ioredis subscribes once it connects).
    void sub.subscribe(CHANNEL).catch((e: unknown) => logError('redis subscribe failed', e));
    sub.on('message', (_channel: string, message: string) => {
      const { origin, realmId } = readAnnouncement(message);
      if (origin !== instanceId) for (const drop of onRelayedChange) drop(realmId);
    });
    return sub;
  });
  return async (realmId) => {
    // Down: skipped, not queued (a request must not wait on it); the others drop all when it returns.
    if (!redisReady()) return;
    await redisClient()
      .publish(CHANNEL, JSON.stringify({ origin: instanceId, realmId }))
      .catch((e: unknown) => logError('cache relay announcement failed', e));
  };
}

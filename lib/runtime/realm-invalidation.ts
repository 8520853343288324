import { Redis } from 'ioredis';
import { settings } from '../config/env';
import { logError } from '../log/logger';
import { redisClient } from './redis';
import { shared } from './shared';

// The caches of several instances (realm, realm settings, group graph, the OAuth engine's) stay
// coherent through Redis: a change on one instance is announced on a channel, and every other
// instance drops the caches registered here when it hears it (docs/architecture.md "Scaling out").
// Which changes are announced is start-up's business (lib/startup/start-up.ts).
const CHANNEL = 'gatehouse:realm-changed';

/** The caches to drop when another instance reports a change. */
const onRelayedChange = shared('realm-relay.extra', (): (() => void)[] => []);

export function alsoInvalidateOnRelay(drop: () => void): void {
  if (!onRelayedChange.includes(drop)) onRelayedChange.push(drop);
}

/**
 * Listens for other instances' announcements (REDIS_URL); answers the function that announces a
 * change of this instance, or null without Redis (one instance has nobody to tell).
 */
export async function startRealmInvalidationRelay(): Promise<(() => Promise<void>) | null> {
  const url = settings().redisUrl;
  if (!url) return null;
  const instanceId = shared('instance-id', () => crypto.randomUUID());
  await shared('realm-relay', async () => {
    const sub = new Redis(url, { maxRetriesPerRequest: null });
    sub.on('error', (e: unknown) => logError('redis subscriber error', e));
    await sub.subscribe(CHANNEL);
    sub.on('message', (_channel: string, message: string) => {
      if (message !== instanceId) for (const drop of onRelayedChange) drop();
    });
    return sub;
  });
  return async () => {
    await redisClient().publish(CHANNEL, instanceId);
  };
}

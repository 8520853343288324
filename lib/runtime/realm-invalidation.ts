import { Redis } from 'ioredis';
import { settings } from '../config/env';
import { subscribe } from '../events/bus';
import { logError } from '../log/logger';
import { invalidateRealmCache } from '../realm/realm-cache';
import { invalidateRealmSettingsCache } from '../domain/realm-settings/realm-settings';
import { invalidateGroupGraph } from '../authz/group-graph';
import { redisClient } from './redis';
import { shared } from './shared';
import { inEventAreas, type EventArea } from '../events/catalog';

// Realm, realm-settings and group-graph caches of several instances stay coherent through Redis: every realm event is relayed on a
// channel, and each instance forgets its cache when it hears one (ARCHITECTURE.md "Scaling out").
const CHANNEL = 'gatehouse:realm-changed';
/** Events after which other instances must drop their realm, settings and group-graph caches. */
const RELAYED_AREAS: readonly EventArea[] = ['realm', 'realm-settings', 'group', 'role', 'oauth-client', 'oauth-scope', 'oauth-api', 'service-account', 'signing-key'];

/** Further caches to drop when another instance reports a change (the OAuth engine adds its own). */
const onRelayedChange = shared('realm-relay.extra', (): (() => void)[] => []);

export function alsoInvalidateOnRelay(drop: () => void): void {
  if (!onRelayedChange.includes(drop)) onRelayedChange.push(drop);
}

export async function startRealmInvalidationRelay(): Promise<void> {
  const url = settings().redisUrl;
  if (!url) return;
  const instanceId = shared('instance-id', () => crypto.randomUUID());
  await shared('realm-relay', async () => {
    const sub = new Redis(url, { maxRetriesPerRequest: null });
    sub.on('error', (e: unknown) => logError('redis subscriber error', e));
    await sub.subscribe(CHANNEL);
    sub.on('message', (_channel: string, message: string) => {
      if (message !== instanceId) {
        invalidateRealmCache();
        invalidateRealmSettingsCache();
        invalidateGroupGraph();
        for (const drop of onRelayedChange) drop();
      }
    });
    subscribe(async (event) => {
      if (inEventAreas(event.type, RELAYED_AREAS)) await redisClient().publish(CHANNEL, instanceId);
    });
    return sub;
  });
}

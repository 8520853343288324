import { Redis } from 'ioredis';
import { settings } from '../config/env';
import { logError, logWarn } from '../log/logger';
import { shared } from './shared';

// Redis (REDIS_URL) makes several instances one: shared rate-limit counters, the cache relay, the
// hub's fan-out and the purge lease. While it is down each instance carries on alone (docs/
// deployment.md "When Redis is down"): counters fall back to this instance's memory, relays and
// fan-out are skipped, and the outage is logged once per connection, as is its end.

/** The process-wide Redis connection (REDIS_URL); only called when REDIS_URL is set. */
export function redisClient(): Redis {
  return shared('redis', () => {
    const url = settings().redisUrl;
    if (!url) throw new Error('REDIS_URL is not set');
    const client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
    watchRedis(client, 'commands');
    return client;
  });
}

/**
 * Opens the shared connection at start-up and waits a little for it, so the first requests count in
 * Redis rather than in this instance's memory; a Redis that is down delays the start by `waitMs` only.
 */
export async function connectRedis(waitMs = 3_000): Promise<boolean> {
  const client = redisClient();
  if (client.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => done(false), waitMs);
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    client.on('ready', onReady);
  });
}

/** Whether the shared connection is up: work that can do without Redis skips it while it is down. */
export function redisReady(): boolean {
  return redisClient().status === 'ready';
}

/**
 * Logs a connection's outage once (not every reconnection attempt) and its return once, and runs
 * `onBack` when it returns (a subscriber drops what it may have missed meanwhile).
 */
export function watchRedis(client: Redis, role: string, onBack?: () => void): void {
  let down = false;
  client.on('error', (e: unknown) => {
    if (down) return;
    down = true;
    logError('redis unavailable: this instance carries on alone until it returns', e, { connection: role });
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logWarn('redis is back', { connection: role });
    onBack?.();
  });
}

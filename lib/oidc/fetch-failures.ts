import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { settings } from '../config/env';
import { redisClient, redisReady } from '../runtime/redis';
import { shared } from '../runtime/shared';

// The engine's memory of outbound fetches that failed (outbound-fetch.ts): a URL whose fetch failed
// is not fetched again for FAILURE_MEMORY_MS. Anyone may make a realm fetch a URL of their choosing
// (a Client ID Metadata Document), so a dead or slow host must not be asked again and again, neither
// by this instance nor by the others behind the same load balancer: with REDIS_URL the memory is
// shared (a key per URL, its SHA-256, expiring on its own). This instance's memory is always kept as
// well, so the engine's second lookup of a failed client (to render its error) never waits on
// Redis, and a Redis that is down only makes the memory per-instance again.
const FAILURE_MEMORY_MS = 30_000;
const KEY_PREFIX = 'gh-fetch-failed:';

function local(): LRUCache<string, true> {
  return shared('oidc.fetch-failures', () => new LRUCache<string, true>({ max: 10_000, ttl: FAILURE_MEMORY_MS }));
}

const keyOf = (url: string) => KEY_PREFIX + createHash('sha256').update(url).digest('base64url');
const sharedMemory = () => Boolean(settings().redisUrl) && redisReady();

/** Remembers that fetching `url` failed. Resolves once the other instances can see it too. */
export async function rememberFailedFetch(url: string): Promise<void> {
  local().set(url, true);
  if (!sharedMemory()) return;
  await redisClient()
    .set(keyOf(url), '1', 'PX', FAILURE_MEMORY_MS)
    .catch(() => undefined); // Redis just went down: this instance still remembers.
}

/** Whether a fetch of `url` failed moments ago, here or on another instance. */
export async function failedRecently(url: string): Promise<boolean> {
  if (local().has(url)) return true;
  if (!sharedMemory()) return false;
  const found = await redisClient()
    .exists(keyOf(url))
    .catch(() => 0);
  return found === 1;
}

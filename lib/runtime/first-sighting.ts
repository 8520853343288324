import { createHash } from 'node:crypto';
import { settings } from '../config/env';
import { redisClient, redisReady } from './redis';
import { shared } from './shared';

// "Seen before?" for values that may be used once within a short window (the `jti` of a DPoP proof,
// lib/domain/access-tokens/presented-token.ts). With REDIS_URL the memory is shared by every
// instance behind the load balancer (SET NX with an expiry: atomic, so of two instances racing with
// the same value exactly one wins); this instance's memory is always kept too, so a Redis that goes
// down only makes the memory per-instance again (docs/deployment.md "When Redis is down"), as for
// the rate-limit counters.
//
// The local memory is bounded, and fails closed: when it holds MAX_ENTRIES values that are all still
// inside their window, a new value is refused rather than an old one forgotten (forgetting one would
// let it be replayed). Values expire after their window, so this only bites under a flood of valid
// one-time values, which the per-source rate limits stop first.

export const MAX_ENTRIES = 100_000;
const KEY_PREFIX = 'gh-once:';

type Memory = { expiries: Map<string, number> };

function memory(): Memory {
  return shared('runtime.first-sighting', () => ({ expiries: new Map<string, number>() }));
}

// A Map keeps insertion order, and every value gets the same kind of window, so the oldest entries
// come first: sweeping stops at the first that is still live.
function sweep(m: Memory, now: number): void {
  for (const [key, expiresAt] of m.expiries) {
    if (expiresAt > now) break;
    m.expiries.delete(key);
  }
}

function firstLocally(key: string, ttlMs: number, now: number): boolean {
  const m = memory();
  const known = m.expiries.get(key);
  if (known !== undefined && known > now) return false;
  if (m.expiries.size >= MAX_ENTRIES) sweep(m, now);
  if (m.expiries.size >= MAX_ENTRIES) return false;
  m.expiries.delete(key); // an expired entry moves to the end, keeping the order of expiries
  m.expiries.set(key, now + ttlMs);
  return true;
}

/**
 * True the first time `value` is offered within `ttlMs` (here or, with Redis, on any instance), false
 * for every later offer until it expires. `value` is hashed, so its length and content do not matter.
 */
export async function firstSighting(namespace: string, value: string, ttlMs: number): Promise<boolean> {
  const key = createHash('sha256').update(`${namespace}\0${value}`).digest('base64url');
  const now = Date.now();
  if (!firstLocally(key, ttlMs, now)) return false;
  if (!settings().redisUrl || !redisReady()) return true;
  const answer = await redisClient()
    .set(KEY_PREFIX + key, '1', 'PX', ttlMs, 'NX')
    .catch(() => 'OK' as const); // Redis just went down: this instance's memory decided.
  return answer === 'OK';
}

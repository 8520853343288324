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
// let it be replayed). Values expire after their window (two minutes at most for a DPoP proof), so
// this only bites under a flood of valid one-time values: for DPoP, proofs that each passed every
// other check, so made by the holder of a live token and its key.

export const MAX_ENTRIES = 100_000;
const KEY_PREFIX = 'gh-once:';

type Memory = { expiries: Map<string, number>; lastFullSweep: number };

function memory(): Memory {
  return shared('runtime.first-sighting', () => ({ expiries: new Map<string, number>(), lastFullSweep: 0 }));
}

// Expired entries are dropped when the memory is full, by one pass over it at most once a second,
// so a memory full of live values costs a lookup per offer, not a pass.
function sweep(m: Memory, now: number): void {
  if (now - m.lastFullSweep < 1_000) return;
  m.lastFullSweep = now;
  for (const [key, expiresAt] of m.expiries) if (expiresAt <= now) m.expiries.delete(key);
}

function firstLocally(key: string, ttlMs: number, now: number): boolean {
  const m = memory();
  const known = m.expiries.get(key);
  if (known !== undefined && known > now) return false;
  if (known === undefined && m.expiries.size >= MAX_ENTRIES) sweep(m, now);
  if (known === undefined && m.expiries.size >= MAX_ENTRIES) return false;
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

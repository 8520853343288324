import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { settings } from '../config/env';
import { AppError } from '../errors/app-error';
import { shared } from '../runtime/shared';
import { redisClient } from '../runtime/redis';
import { rateLimitPolicies, type RateLimitDimension, type RateLimitPolicyName } from './policies';

// The one rate-limit module: rate-limiter-flexible, in memory, or in Redis when REDIS_URL is set so
// several instances share counters. A rejection is the spec's 429 (spec 7).

function limiterFor(policy: RateLimitPolicyName, dimension: RateLimitDimension): RateLimiterAbstract | undefined {
  const limit = (rateLimitPolicies[policy] as Partial<Record<RateLimitDimension, { points: number; durationSeconds: number }>>)[dimension];
  const scale = settings().rateLimitScale;
  if (!limit || scale === 0) return undefined;
  return shared(`rate-limiter:${policy}:${dimension}`, () => {
    const opts = { keyPrefix: `gh-rl:${policy}:${dimension}`, points: Math.max(1, Math.round(limit.points * scale)), duration: limit.durationSeconds };
    return settings().redisUrl ? new RateLimiterRedis({ ...opts, storeClient: redisClient(), rejectIfRedisNotReady: false }) : new RateLimiterMemory(opts);
  });
}

/**
 * Counts one hit of `policy` on `dimension` for `key` (scoped to the realm) and throws the 429
 * problem when the ceiling is passed. A dimension the policy does not limit is a no-op.
 */
export async function consumeRateLimit(policy: RateLimitPolicyName, dimension: RateLimitDimension, realmId: string, key: string): Promise<void> {
  const limiter = limiterFor(policy, dimension);
  if (!limiter) return;
  try {
    await limiter.consume(`${realmId}:${key.toLowerCase()}`);
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e;
    const retryAfterSeconds = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
    throw new AppError('RateLimit.Exceeded', {
      retryAfterSeconds,
      extensions: { error: 'rate_limited', policy, dimension, retryAfterSeconds },
    });
  }
}

/** Forgets the counters of a key (after a successful sign-in, the target's failures are cleared). */
export async function resetRateLimit(policy: RateLimitPolicyName, dimension: RateLimitDimension, realmId: string, key: string): Promise<void> {
  await limiterFor(policy, dimension)?.delete(`${realmId}:${key.toLowerCase()}`);
}

import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { settings } from '../config/env';
import { AppError } from '../errors/app-error';
import { shared } from '../runtime/shared';
import { redisClient } from '../runtime/redis';
import { dimensionKey, rateLimitPolicies, type DimensionLimit, type RateLimitDimension, type RateLimitPolicyName } from './policies';

// The one rate-limit module: rate-limiter-flexible, in memory, or in Redis when REDIS_URL is set so
// several instances share counters. A rejection is the spec's 429 (spec 7). Ceilings are the
// policy defaults, overridable per realm (spec 8) and scaled by GATEHOUSE_RATE_LIMIT_SCALE.

/** A realm's overrides, as its settings carry them: policy -> dimension (capitalised) -> limit. */
export type RateLimitOverrides = Record<string, Partial<Record<'Source' | 'Target' | 'Client' | 'App', { Points: number; DurationSeconds: number }>>>;

export function effectiveLimit(policy: RateLimitPolicyName, dimension: RateLimitDimension, overrides?: RateLimitOverrides): DimensionLimit | undefined {
  const o = overrides?.[policy]?.[dimensionKey(dimension)];
  if (o) return { points: o.Points, durationSeconds: o.DurationSeconds };
  return (rateLimitPolicies[policy] as Partial<Record<RateLimitDimension, DimensionLimit>>)[dimension];
}

function limiterFor(policy: RateLimitPolicyName, dimension: RateLimitDimension, limit: DimensionLimit): RateLimiterAbstract | undefined {
  const scale = settings().rateLimitScale;
  if (scale === 0) return undefined;
  const points = Math.max(1, Math.round(limit.points * scale));
  // One limiter per distinct ceiling: realms with the same override share it; keys are realm-scoped.
  return shared(`rate-limiter:${policy}:${dimension}:${points}:${limit.durationSeconds}`, () => {
    const opts = { keyPrefix: `gh-rl:${policy}:${dimension}:${points}:${limit.durationSeconds}`, points, duration: limit.durationSeconds };
    if (!settings().redisUrl) return new RateLimiterMemory(opts);
    // While Redis is down, the same ceiling counted in this instance's memory: limits stay on (never
    // "allow all"), only no longer shared between instances (docs/deployment.md).
    return new RateLimiterRedis({ ...opts, storeClient: redisClient(), rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(opts) });
  });
}

/**
 * Counts one hit of `policy` on `dimension` for `key` (scoped to the realm) and throws the 429
 * problem when the ceiling is passed. A dimension the policy does not limit is a no-op.
 */
export async function consumeRateLimit(
  policy: RateLimitPolicyName,
  dimension: RateLimitDimension,
  realmId: string,
  key: string,
  overrides?: RateLimitOverrides,
): Promise<void> {
  const counter = counterOf(policy, dimension, realmId, key, overrides);
  if (!counter) return;
  try {
    await counter.limiter.consume(counter.key);
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e;
    const retryAfterSeconds = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
    throw new AppError('RateLimit.Exceeded', {
      retryAfterSeconds,
      extensions: { error: 'rate_limited', policy, dimension, retryAfterSeconds },
    });
  }
}

/** The limiter of one policy dimension and the realm-scoped counter key, or null when unlimited. */
function counterOf(policy: RateLimitPolicyName, dimension: RateLimitDimension, realmId: string, key: string, overrides?: RateLimitOverrides) {
  const limit = effectiveLimit(policy, dimension, overrides);
  const limiter = limit && limiterFor(policy, dimension, limit);
  return limiter ? { limiter, key: `${realmId}:${key.toLowerCase()}` } : null;
}

/** Forgets the counters of a key (after a successful sign-in, the target's failures are cleared). */
export async function resetRateLimit(
  policy: RateLimitPolicyName,
  dimension: RateLimitDimension,
  realmId: string,
  key: string,
  overrides?: RateLimitOverrides,
): Promise<void> {
  const counter = counterOf(policy, dimension, realmId, key, overrides);
  await counter?.limiter.delete(counter.key);
}

/**
 * Gives back one hit of `key` (a guess that turned out right): for counters that should count only
 * failures. The hit is taken first and refunded after, so concurrent guesses cannot slip past the
 * ceiling while their outcome is unknown.
 */
export async function refundRateLimit(
  policy: RateLimitPolicyName,
  dimension: RateLimitDimension,
  realmId: string,
  key: string,
  overrides?: RateLimitOverrides,
): Promise<void> {
  const counter = counterOf(policy, dimension, realmId, key, overrides);
  await counter?.limiter.reward(counter.key, 1);
}

import { consumeRateLimit, refundRateLimit, resetRateLimit } from '../../rate-limit/limiter';
import type { RateLimitDimension, RateLimitPolicyName } from '../../rate-limit/policies';
import type { DomainContext } from '../../realm/context';
import { BUILT_IN_IDS } from '../built-in-ids';
import { realmSettings } from './realm-settings';

/** Counts a hit against the realm's ceiling for `policy` (its override, else the default). */
export async function limitRate(ctx: DomainContext, policy: RateLimitPolicyName, dimension: RateLimitDimension, key: string): Promise<void> {
  const s = await realmSettings(ctx.realm);
  await consumeRateLimit(policy, dimension, ctx.realm.id, key, s.RateLimits);
}

/**
 * Counts one request of `policy` by source address, then by App (the request's App unless named;
 * the built-in App outside requests). The source goes first so that a caller already past its own
 * ceiling is refused before it can use up the App's shared allowance.
 */
export async function limitRequestRate(ctx: DomainContext, policy: RateLimitPolicyName, appId: string = ctx.appId ?? BUILT_IN_IDS.mainApp): Promise<void> {
  const s = await realmSettings(ctx.realm);
  await consumeRateLimit(policy, 'source', ctx.realm.id, ctx.ip ?? 'unknown', s.RateLimits);
  await consumeRateLimit(policy, 'app', ctx.realm.id, appId, s.RateLimits);
}

export async function clearRate(ctx: DomainContext, policy: RateLimitPolicyName, dimension: RateLimitDimension, key: string): Promise<void> {
  const s = await realmSettings(ctx.realm);
  await resetRateLimit(policy, dimension, ctx.realm.id, key, s.RateLimits);
}

/** Gives back the hit `limitRate` took, once the attempt proved right: only failures count. */
export async function refundRate(ctx: DomainContext, policy: RateLimitPolicyName, dimension: RateLimitDimension, key: string): Promise<void> {
  const s = await realmSettings(ctx.realm);
  await refundRateLimit(policy, dimension, ctx.realm.id, key, s.RateLimits);
}

import { consumeRateLimit, resetRateLimit } from '../../rate-limit/limiter';
import type { RateLimitDimension, RateLimitPolicyName } from '../../rate-limit/policies';
import type { DomainContext } from '../context';
import { realmSettings } from './realm-settings';

/** Counts a hit against the realm's ceiling for `policy` (its override, else the default). */
export async function limitRate(ctx: DomainContext, policy: RateLimitPolicyName, dimension: RateLimitDimension, key: string): Promise<void> {
  const s = await realmSettings(ctx.realm);
  await consumeRateLimit(policy, dimension, ctx.realm.id, key, s.RateLimits);
}

export async function clearRate(ctx: DomainContext, policy: RateLimitPolicyName, dimension: RateLimitDimension, key: string): Promise<void> {
  const s = await realmSettings(ctx.realm);
  await resetRateLimit(policy, dimension, ctx.realm.id, key, s.RateLimits);
}

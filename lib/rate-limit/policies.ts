// Rate-limit policies (spec 7, 8). Each policy limits one or more dimensions: the source address,
// the target (a mailbox or user name), the OAuth client or the App. Defaults here; issue 3 lets a
// realm administrator override the ceilings in the realm settings.
export type RateLimitDimension = 'source' | 'target' | 'client' | 'app';

export type DimensionLimit = { points: number; durationSeconds: number };

export type RateLimitPolicy = Partial<Record<RateLimitDimension, DimensionLimit>>;

export const rateLimitPolicies = {
  // Spec 8: 10 attempts per IP per 15 minutes.
  bootstrap: { source: { points: 10, durationSeconds: 15 * 60 } },
  // Password sign-in: a burst allowance per address, and a slower one per account name so a
  // distributed guesser cannot hammer one account.
  login: { source: { points: 30, durationSeconds: 60 }, target: { points: 10, durationSeconds: 5 * 60 } },
} satisfies Record<string, RateLimitPolicy>;

export type RateLimitPolicyName = keyof typeof rateLimitPolicies;

// Rate-limit policies (spec 7, 8). Each policy limits one or more dimensions: the source address,
// the target (a mailbox or user name), the OAuth client or the App. Defaults here; issue 3 lets a
// realm administrator override the ceilings in the realm settings (docs/rate-limits.md).
//
// `app` protects an App as a whole from a distributed flood (many addresses, each under its own
// ceiling): generous, ten times the per-source ceiling over the same window. The route wrapper
// counts `source` and `app`; domain code counts `target`; the OAuth engine counts `client`.
// `client`: the native grants (spec 4.4) count per OAuth client, so one app's users cannot exhaust
// another's allowance and a leaked public client id cannot be used to flood mailboxes.
export type RateLimitDimension = 'source' | 'target' | 'client' | 'app';

export type DimensionLimit = { points: number; durationSeconds: number };

/** A dimension as the realm settings name it in their overrides (`source` -> `Source`). */
export const dimensionKey = (d: RateLimitDimension) => (d.charAt(0).toUpperCase() + d.slice(1)) as 'Source' | 'Target' | 'Client' | 'App';

export type RateLimitPolicy = Partial<Record<RateLimitDimension, DimensionLimit>>;

export const rateLimitPolicies = {
  // Spec 8: 10 attempts per IP per 15 minutes.
  bootstrap: { source: { points: 10, durationSeconds: 15 * 60 } },
  // Password sign-in: a burst allowance per address, and a slower one per account (the account the
  // typed name resolves to, see password-login.ts) so a distributed guesser cannot hammer one account.
  login: { source: { points: 30, durationSeconds: 60 }, target: { points: 10, durationSeconds: 5 * 60 }, app: { points: 300, durationSeconds: 60 } },
  // Second factor after a first one: per source, and per user (target) so a stolen pending cookie
  // cannot brute-force 10^6 TOTP codes.
  'mfa-login': { source: { points: 30, durationSeconds: 60 }, target: { points: 5, durationSeconds: 5 * 60 }, app: { points: 300, durationSeconds: 60 } },
  // Anything that sends mail: per mailbox (target) so nobody can flood someone's inbox.
  'forgot-password': {
    source: { points: 10, durationSeconds: 15 * 60 },
    target: { points: 3, durationSeconds: 15 * 60 },
    app: { points: 100, durationSeconds: 15 * 60 },
  },
  // External sign-in by navigation (OIDC start and callback, Kerberos): each costs a call to the
  // upstream, so a flood from one address is cut before it reaches the upstream.
  'external-login': { source: { points: 60, durationSeconds: 60 }, app: { points: 600, durationSeconds: 60 } },
  // Failed posts to a SAML ACS (issue 30 item 1), beside `external-login`: the post is anonymous and
  // its slug public, so a source gets a small allowance of refusals of its own. Only failures count
  // (saml-sign-in.ts gives the hit back on success). No `app` ceiling: one source's failures must not
  // lock every other source out of the IdP.
  'saml-acs-failure': { source: { points: 10, durationSeconds: 60 } },
  'reset-password': { source: { points: 20, durationSeconds: 15 * 60 } },
  'email-verification': {
    source: { points: 10, durationSeconds: 15 * 60 },
    target: { points: 3, durationSeconds: 15 * 60 },
    app: { points: 100, durationSeconds: 15 * 60 },
  },
  'email-otp-request': {
    source: { points: 10, durationSeconds: 15 * 60 },
    target: { points: 5, durationSeconds: 15 * 60 },
    app: { points: 100, durationSeconds: 15 * 60 },
    client: { points: 100, durationSeconds: 15 * 60 },
  },
  'email-otp-login': {
    source: { points: 30, durationSeconds: 15 * 60 },
    target: { points: 10, durationSeconds: 15 * 60 },
    app: { points: 300, durationSeconds: 15 * 60 },
    client: { points: 300, durationSeconds: 15 * 60 },
  },
  'magic-link-request': {
    source: { points: 10, durationSeconds: 15 * 60 },
    target: { points: 5, durationSeconds: 15 * 60 },
    app: { points: 100, durationSeconds: 15 * 60 },
    client: { points: 100, durationSeconds: 15 * 60 },
  },
  'magic-link-login': {
    source: { points: 30, durationSeconds: 15 * 60 },
    app: { points: 300, durationSeconds: 15 * 60 },
    client: { points: 300, durationSeconds: 15 * 60 },
  },
  'passkey-login': { source: { points: 60, durationSeconds: 60 }, app: { points: 600, durationSeconds: 60 }, client: { points: 600, durationSeconds: 60 } },
  register: {
    source: { points: 10, durationSeconds: 60 * 60 },
    target: { points: 3, durationSeconds: 60 * 60 },
    app: { points: 100, durationSeconds: 60 * 60 },
    client: { points: 100, durationSeconds: 60 * 60 },
  },
  'register-verify': { source: { points: 30, durationSeconds: 15 * 60 }, app: { points: 300, durationSeconds: 15 * 60 } },
  'change-password': { source: { points: 10, durationSeconds: 15 * 60 }, target: { points: 5, durationSeconds: 15 * 60 } },
  'profile-request': { source: { points: 20, durationSeconds: 60 * 60 }, target: { points: 5, durationSeconds: 60 * 60 } },
  // Privacy rights (spec 4.6): a data export reads everything a person left behind, so it is
  // limited per account (target) as well; a deletion request sends mail, so per account like them.
  'data-export': {
    source: { points: 30, durationSeconds: 60 * 60 },
    target: { points: 10, durationSeconds: 60 * 60 },
    app: { points: 300, durationSeconds: 60 * 60 },
  },
  'account-deletion': {
    source: { points: 20, durationSeconds: 15 * 60 },
    target: { points: 5, durationSeconds: 15 * 60 },
    app: { points: 200, durationSeconds: 15 * 60 },
  },
  'account-deletion-confirm': { source: { points: 20, durationSeconds: 15 * 60 }, app: { points: 200, durationSeconds: 15 * 60 } },
  'invite-code-redeem': { source: { points: 20, durationSeconds: 15 * 60 }, app: { points: 200, durationSeconds: 15 * 60 } },
  // Flag and entitlement evaluation (spec 4.10): read by applications on many requests, so a
  // generous ceiling; it only stops a runaway loop from one address.
  'flag-evaluation': { source: { points: 600, durationSeconds: 60 }, app: { points: 6000, durationSeconds: 60 } },
} satisfies Record<string, RateLimitPolicy>;

export type RateLimitPolicyName = keyof typeof rateLimitPolicies;

/** Every policy name, in the order above (the console's select lists them so). */
export const rateLimitPolicyNames = Object.keys(rateLimitPolicies) as RateLimitPolicyName[];

export function isRateLimitPolicyName(name: string): name is RateLimitPolicyName {
  return Object.hasOwn(rateLimitPolicies, name);
}

const DIMENSION_ORDER: readonly RateLimitDimension[] = ['source', 'target', 'client', 'app'];

/**
 * The dimensions a realm may override for `policy`: the ones the policy counts, i.e. has a ceiling
 * for (a dimension without one is a no-op in the limiter). An override adjusts a ceiling; it does
 * not add one, so the realm settings refuse any other dimension, and every one of an unknown policy.
 */
export function overridableDimensions(policy: string): RateLimitDimension[] {
  if (!isRateLimitPolicyName(policy)) return [];
  const counted: RateLimitPolicy = rateLimitPolicies[policy];
  return DIMENSION_ORDER.filter((d) => counted[d] !== undefined);
}

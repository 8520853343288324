// Whether two-factor sign-in is required for a user: their own policy (`Required`, `Exempt`) wins
// over the realm's TwoFactor.Required, as completeFirstFactor applies it at sign-in (spec 5.5).
export const TWO_FACTOR_POLICIES = ['Default', 'Required', 'Exempt'] as const;

export type TwoFactorPolicy = (typeof TWO_FACTOR_POLICIES)[number];

export function twoFactorRequired(policy: string, realmRequires: boolean): boolean {
  return policy === 'Required' || (policy !== 'Exempt' && realmRequires);
}

/** A grace period runs while 2FA is required, not yet set up, and the deadline lies ahead. */
export function gracePeriodActive(input: { required: boolean; secured: boolean; dueAt: Date | null }, now = Date.now()): boolean {
  return input.required && !input.secured && input.dueAt !== null && input.dueAt.getTime() > now;
}

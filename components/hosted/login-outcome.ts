// Login outcomes (spec 5.5): every sign-in step answers one of these; the form moves to the next
// step accordingly.
export type SecondFactor = 'totp' | 'email-otp' | 'passkey';

export type LoginOutcome =
  | { authenticated: true; userId?: string; userName?: string }
  | { requiresTwoFactor: true; mfaMethods?: SecondFactor[] }
  | { requiresSecureSetup: true; gracePeriod: boolean; secureSetupDueAt?: string };

export type LoginStep =
  | { kind: 'start' }
  | { kind: 'two-factor'; methods: SecondFactor[] }
  | { kind: 'secure-setup-blocked' }
  /** Signed in, but a second factor must be set up before `dueAt`. */
  | { kind: 'secure-setup-grace'; dueAt?: string }
  | { kind: 'done' };

export function stepAfter(outcome: LoginOutcome): LoginStep {
  if ('requiresTwoFactor' in outcome && outcome.requiresTwoFactor) {
    const methods = outcome.mfaMethods?.length ? outcome.mfaMethods : (['totp'] as SecondFactor[]);
    return { kind: 'two-factor', methods };
  }
  // Checked before `authenticated`: within the grace period the answer carries both (the session
  // exists) and the person continues, with a nudge towards /account.
  if ('requiresSecureSetup' in outcome && outcome.requiresSecureSetup) {
    return outcome.gracePeriod ? { kind: 'secure-setup-grace', dueAt: outcome.secureSetupDueAt } : { kind: 'secure-setup-blocked' };
  }
  if ('authenticated' in outcome && outcome.authenticated) return { kind: 'done' };
  return { kind: 'start' };
}

/** What /login offers, from the realm's settings (GET /api/app-info `SignIn`). */
export type SignInMethods = { password: boolean; passkey: boolean; emailCode: boolean; magicLink: boolean; register: boolean };

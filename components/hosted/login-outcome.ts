// Login outcomes (spec 5.5): every sign-in step answers one of these; the form moves to the next
// step accordingly. Later steps (second factor, secure set-up) plug in here.
export type LoginOutcome =
  | { authenticated: true; userId?: string; userName?: string }
  | { requiresTwoFactor: true; mfaMethods?: string[] }
  | { requiresSecureSetup: true; gracePeriod: boolean; secureSetupDueAt?: string };

export type LoginStep =
  | { kind: 'password' }
  | { kind: 'two-factor'; methods: string[] }
  | { kind: 'secure-setup-blocked' }
  | { kind: 'done' };

export function stepAfter(outcome: LoginOutcome): LoginStep {
  if ('authenticated' in outcome && outcome.authenticated) return { kind: 'done' };
  if ('requiresTwoFactor' in outcome && outcome.requiresTwoFactor) return { kind: 'two-factor', methods: outcome.mfaMethods ?? ['totp'] };
  if ('requiresSecureSetup' in outcome && outcome.requiresSecureSetup) {
    // With time left the session exists and the user continues; set-up is offered in /account.
    return outcome.gracePeriod ? { kind: 'done' } : { kind: 'secure-setup-blocked' };
  }
  return { kind: 'password' };
}

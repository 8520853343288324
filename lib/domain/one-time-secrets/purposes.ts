// Every kind of one-time secret, with its lifetime and how many wrong tries it survives. These are
// the documented lifetimes (issue 3 item 9); a link carries a 256-bit token, a code is 6 digits.
export const secretPurposes = {
  'password-reset': { ttlMinutes: 30, kind: 'token', maxAttempts: 1 },
  'email-verification': { ttlMinutes: 24 * 60, kind: 'token', maxAttempts: 1 },
  'email-otp': { ttlMinutes: 10, kind: 'code', maxAttempts: 5 },
  'magic-link': { ttlMinutes: 15, kind: 'token', maxAttempts: 1 },
  registration: { ttlMinutes: 24 * 60, kind: 'token', maxAttempts: 1 },
  'registration-code': { ttlMinutes: 10, kind: 'code', maxAttempts: 5 },
  'profile-email': { ttlMinutes: 24 * 60, kind: 'token', maxAttempts: 1 },
  // The mailed link that confirms a self-deletion (spec 3.5): a day, like the other mailed links.
  'account-deletion': { ttlMinutes: 24 * 60, kind: 'token', maxAttempts: 1 },
  // The short-lived cookie between a first factor and the second (CONTRACT.md).
  'mfa-pending': { ttlMinutes: 5, kind: 'token', maxAttempts: 5 },
  // WebAuthn ceremonies: the challenge travels in `data`, the token names the ceremony.
  'passkey-registration': { ttlMinutes: 5, kind: 'token', maxAttempts: 1 },
  'passkey-login': { ttlMinutes: 5, kind: 'token', maxAttempts: 1 },
  // External sign-in: an OIDC login in flight (the token is the `state`), and the id of an
  // AuthnRequest this realm sent (SAML InResponseTo, accepted once).
  'external-login': { ttlMinutes: 10, kind: 'token', maxAttempts: 1 },
  'saml-request': { ttlMinutes: 10, kind: 'token', maxAttempts: 1 },
  // An upstream identity waiting for its person to confirm the link (pending-link.ts).
  'external-link-pending': { ttlMinutes: 10, kind: 'token', maxAttempts: 1 },
} as const;

export type SecretPurpose = keyof typeof secretPurposes;

import { z } from 'zod';
import { clearGracePeriod } from '../domain/user-security/clear-grace-period';
import { resetGracePeriod } from '../domain/user-security/reset-grace-period';
import { securityInfo } from '../domain/user-security/security-info';
import { setTwoFactorPolicy } from '../domain/user-security/set-two-factor-policy';
import { TWO_FACTOR_POLICIES } from '../domain/mfa/policy';
import { passkeySchema } from '../domain/passkeys/schemas';
import { mySessionsSchema } from '../domain/sessions/schemas';
import { listUserPasskeys, removeUserPasskeys } from '../domain/user-security/remove-passkeys';
import { resetTwoFactor } from '../domain/user-security/reset-two-factor';
import { securityInfoSchema, userIdParamsSchema, userPasskeyParamsSchema } from '../domain/user-security/schemas';
import { listUserSessions, revokeUserSessionsByAdmin } from '../domain/user-security/user-sessions';
import { defineEndpoint } from '../http/endpoint';

// A user's sign-in security as administrators see and steer it (spec 4.7 "User administration").
const common = { tags: ['User administration'], auth: 'user', permission: 'user:write', params: userIdParamsSchema } as const;

export const securityInfoEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/users/{id}/security-info',
  summary: "The user's sign-in methods, effective 2FA requirement and secure-setup grace period",
  response: securityInfoSchema,
  handler: async ({ ctx, params }) => securityInfo(ctx, params.id),
});

export const setTwoFactorPolicyEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/admin/users/{id}/grace/policy',
  summary: "Set the user's 2FA policy: Default (the realm decides), Required or Exempt",
  body: z.object({ Policy: z.enum(TWO_FACTOR_POLICIES) }),
  response: securityInfoSchema,
  handler: async ({ ctx, params, body }) => setTwoFactorPolicy(ctx, params.id, body.Policy),
});

export const resetGracePeriodEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/users/{id}/grace/reset',
  summary: "Restart the secure-setup grace period: deadline = now + the realm's grace days",
  response: securityInfoSchema,
  handler: async ({ ctx, params }) => resetGracePeriod(ctx, params.id),
});

export const clearGracePeriodEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/admin/users/{id}/grace',
  summary: 'Clear the secure-setup deadline: the next sign-in starts a fresh grace period',
  status: 204,
  handler: async ({ ctx, params }) => clearGracePeriod(ctx, params.id),
});

// Recovery after a lost device: the second factor and the passkeys. Each mails the person a notice.

export const resetTwoFactorEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/admin/users/{id}/mfa',
  summary: "Reset the user's two-factor sign-in: TOTP off, authenticator removed; where 2FA is required, a fresh grace period",
  response: securityInfoSchema,
  handler: async ({ ctx, params }) => resetTwoFactor(ctx, params.id),
});

export const listUserPasskeysEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/users/{id}/passkeys',
  summary: "The user's passkeys (valid for the realm's current PrimaryDomain), without key material",
  response: z.array(passkeySchema),
  handler: async ({ ctx, params }) => listUserPasskeys(ctx, params.id),
});

export const removeUserPasskeysEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/admin/users/{id}/passkeys',
  summary: "Remove all of the user's passkeys; where 2FA is required and no factor is left, a fresh grace period",
  response: securityInfoSchema,
  handler: async ({ ctx, params }) => removeUserPasskeys(ctx, params.id),
});

export const removeUserPasskeyEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/admin/users/{id}/passkeys/{passkeyId}',
  summary: "Remove one of the user's passkeys",
  params: userPasskeyParamsSchema,
  response: securityInfoSchema,
  handler: async ({ ctx, params }) => removeUserPasskeys(ctx, params.id, params.passkeyId),
});

// Sessions (resource `session`): the same lists as GET /api/auth/sessions, and force logout.

export const listUserSessionsEndpoint = defineEndpoint({
  ...common,
  permission: 'session:read',
  method: 'GET',
  path: '/api/admin/users/{id}/sessions',
  summary: "The user's browser sessions and native/OAuth client sessions",
  response: mySessionsSchema,
  handler: async ({ ctx, params }) => listUserSessions(ctx, params.id),
});

export const revokeUserSessionsEndpoint = defineEndpoint({
  ...common,
  permission: 'session:write',
  method: 'DELETE',
  path: '/api/admin/users/{id}/sessions',
  summary: 'Force logout: end every browser session and every client session of the user, revoking their tokens',
  status: 204,
  handler: async ({ ctx, params }) => revokeUserSessionsByAdmin(ctx, params.id),
});

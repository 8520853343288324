import { z } from 'zod';
import { clearGracePeriod } from '../domain/user-security/clear-grace-period';
import { resetGracePeriod } from '../domain/user-security/reset-grace-period';
import { securityInfo } from '../domain/user-security/security-info';
import { setTwoFactorPolicy } from '../domain/user-security/set-two-factor-policy';
import { TWO_FACTOR_POLICIES } from '../domain/mfa/policy';
import { defineEndpoint } from '../http/endpoint';

// A user's sign-in security as administrators see and steer it (spec 4.7 "User administration").
const common = { tags: ['User administration'], auth: 'user', permission: 'user:write', params: z.object({ id: z.string().min(1).max(64) }) } as const;

const securityInfoSchema = z.object({
  HasPassword: z.boolean(),
  TwoFactorEnabled: z.boolean(),
  HasAuthenticator: z.boolean(),
  PasskeyCount: z.number().int(),
  TwoFactorPolicy: z.enum(TWO_FACTOR_POLICIES),
  TwoFactorRequired: z.boolean(),
  SecureSetupDueAt: z.date().nullish(),
  GracePeriodActive: z.boolean(),
  EmailConfirmed: z.boolean(),
  LastLoginAt: z.date().nullish(),
});

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

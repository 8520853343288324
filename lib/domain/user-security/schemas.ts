import { z } from 'zod';
import { TWO_FACTOR_POLICIES } from '../mfa/policy';

// Wire shapes of the user-administration security routes (spec 4.7 "User administration"), shared
// by the API and the console's Security area. Pure (zod and a rule table), so the browser may import it.

/** GET /api/admin/users/{id}/security-info, and the answer of every change to it. */
export const securityInfoSchema = z.object({
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

export const userIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const userPasskeyParamsSchema = z.object({ id: z.string().min(1).max(64), passkeyId: z.string().min(1).max(200) });

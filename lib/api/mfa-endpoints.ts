import { z } from 'zod';
import { readPendingCookie } from '../auth/pending-cookie';
import { disableTwoFactor } from '../domain/mfa/disable-two-factor';
import { enableTwoFactor } from '../domain/mfa/enable-two-factor';
import { setupAuthenticator } from '../domain/mfa/setup-authenticator';
import { totpLogin } from '../domain/mfa/totp-login';
import { twoFactorStatus } from '../domain/mfa/two-factor-status';
import { defineEndpoint } from '../http/endpoint';
import { applySignInOutcome } from '../http/sign-in-response';
import { loginOutcomeSchema } from './account-endpoints';
import { mfaSetupSchema, mfaStatusSchema } from '../domain/mfa/schemas';

// TOTP second factor (spec 4.3, 5.5; CONTRACT.md "Account bodies"). Self-service routes need the
// session cookie, except that setup and verify also accept the pending cookie of a setup-only
// sign-in (grace period over): verify then signs the person in and answers a login outcome.
const tags = ['Two-factor authentication'];
const codeBody = z.object({ Code: z.string().trim().min(1).max(16) });
const pendingToken = (request: Request) => readPendingCookie(request.headers.get('cookie'));

export const mfaStatusEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/mfa/status',
  summary: "The signed-in user's two-factor state (lower-case, as the spec writes it)",
  tags,
  auth: 'user',
  response: mfaStatusSchema,
  handler: async ({ ctx }) => twoFactorStatus(ctx),
});

export const mfaSetupEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/mfa/setup',
  summary: 'Generate a TOTP authenticator key (replaces an unconfirmed one); session or setup-only pending cookie',
  tags,
  auth: 'optional',
  rateLimit: 'mfa-login',
  response: mfaSetupSchema,
  handler: async ({ ctx, request }) => setupAuthenticator(ctx, pendingToken(request)),
});

export const mfaVerifyEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/mfa/verify',
  summary: 'Confirm the authenticator with a code and turn 2FA on; with a setup-only pending cookie this also signs in',
  tags,
  auth: 'optional',
  rateLimit: 'mfa-login',
  body: codeBody,
  response: z.union([z.object({ TwoFactorEnabled: z.literal(true) }), loginOutcomeSchema]),
  handler: async ({ ctx, body, request, headers }) => {
    const r = await enableTwoFactor(ctx, body.Code, pendingToken(request));
    return r.kind === 'signed-in' ? applySignInOutcome(r.outcome, headers) : { TwoFactorEnabled: true as const };
  },
});

export const mfaDisableEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/mfa/disable',
  summary: 'Turn 2FA off with a current authenticator code (403 while 2FA is required for the user)',
  tags,
  auth: 'user',
  rateLimit: 'mfa-login',
  body: codeBody,
  response: z.object({ TwoFactorEnabled: z.literal(false) }),
  handler: async ({ ctx, body }) => {
    await disableTwoFactor(ctx, body.Code);
    return { TwoFactorEnabled: false as const };
  },
});

export const mfaLoginEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/mfa/login',
  summary: 'Sign-in step 2 with an authenticator code (needs the pending cookie of step 1)',
  tags,
  auth: 'anonymous',
  rateLimit: 'mfa-login',
  body: codeBody,
  response: loginOutcomeSchema,
  handler: async ({ ctx, body, request, headers }) => applySignInOutcome(await totpLogin(ctx, pendingToken(request), body.Code), headers),
});

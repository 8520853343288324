import { z } from 'zod';
import { readPendingCookie } from '../auth/pending-cookie';
import { emailOtpLogin, emailOtpSecondFactor } from '../domain/email-otp/email-otp-login';
import { emailOtpStatus } from '../domain/email-otp/email-otp-status';
import { requestEmailOtp, requestSecondFactorCode } from '../domain/email-otp/request-email-otp';
import { registrationAppId } from '../domain/registration/app-context';
import { validationError } from '../errors/app-error';
import { defineEndpoint } from '../http/endpoint';
import { applySignInOutcome } from '../http/sign-in-response';
import { loginOutcomeSchema } from './account-endpoints';
import { emailOtpStatusSchema } from '../domain/email-otp/schemas';
import { emailRule } from '../domain/credential-rules';

// E-mail one-time codes (spec 4.3, 5.5, 5.6; CONTRACT.md "Account bodies"). With `Email` these are
// a first factor; without it, and with the pending cookie of a sign-in that waits for a second
// factor offering `email-otp`, they are that second step.
const tags = ['E-mail one-time code'];
const email = emailRule;
const pendingToken = (request: Request) => readPendingCookie(request.headers.get('cookie'));

function secondStepToken(request: Request): string | undefined {
  const token = pendingToken(request);
  // Neither an address nor a pending sign-in: the address is what is missing.
  if (!token) throw validationError({ Email: ['Required (or continue a pending sign-in).'] }, 'The request body is not valid.');
  return token;
}

export const emailOtpStatusEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/email-otp/status',
  summary: 'Whether the realm allows e-mail codes, and the address they go to',
  tags,
  auth: 'user',
  response: emailOtpStatusSchema,
  handler: async ({ ctx }) => emailOtpStatus(ctx),
});

export const emailOtpRequestEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/email-otp/login/request',
  summary: 'Mail a 6-digit sign-in code (same answer whether or not the address has an account); without Email, the second-step code of a pending sign-in',
  tags,
  auth: 'anonymous',
  rateLimit: 'email-otp-request',
  body: z.object({ Email: email.optional() }),
  response: z.object({}),
  handler: async ({ ctx, body, request }) => {
    if (body.Email !== undefined) await requestEmailOtp(ctx, body.Email);
    else await requestSecondFactorCode(ctx, secondStepToken(request));
    return {};
  },
});

export const emailOtpLoginEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/email-otp/login',
  summary: 'Sign in with a mailed code; without Email, finish a pending sign-in with the second-step code',
  tags,
  auth: 'anonymous',
  rateLimit: 'email-otp-login',
  // InviteCode: only for the JitOnOtp posture, when the code creates the account and the realm
  // requires an invite code (spec 2.5).
  body: z.object({ Email: email.optional(), Code: z.string().trim().min(1).max(16), InviteCode: z.string().max(100).nullish() }),
  response: loginOutcomeSchema,
  handler: async ({ ctx, body, request, headers }) => {
    const jit = { inviteCode: body.InviteCode, appId: registrationAppId(ctx.realm, request.headers.get('host')) };
    const outcome =
      body.Email !== undefined ? await emailOtpLogin(ctx, body.Email, body.Code, jit) : await emailOtpSecondFactor(ctx, secondStepToken(request), body.Code);
    return applySignInOutcome(outcome, headers);
  },
});

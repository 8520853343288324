import { z } from 'zod';
import { register } from '../domain/registration/register';
import { registrationAppId } from '../domain/registration/app-context';
import { selfRegistrationInfo } from '../domain/registration/registration-info';
import { verifyRegistration } from '../domain/registration/verify-registration';
import { defineEndpoint } from '../http/endpoint';
import { applySignInOutcome } from '../http/sign-in-response';
import { loginOutcomeSchema } from './account-endpoints';
import { emailRule, PASSWORD_MAX_LENGTH } from '../domain/credential-rules';

// Self-registration (spec 2.5, 4.1; CONTRACT.md "Account bodies"). All anonymous.
const tags = ['Registration'] as const;
const fieldPolicy = z.enum(['Off', 'Optional', 'Required']);

export const selfRegistrationInfoEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/self-registration-info',
  summary: 'Public self-registration configuration: posture, invite-code requirement, fields and password length',
  tags,
  auth: 'anonymous',
  response: z.object({
    Posture: z.enum(['Off', 'JitOnOtp', 'ExplicitEndpoint']),
    RequireInviteCode: z.boolean(),
    RegistrationFields: z.object({ Email: z.literal('Required'), Username: fieldPolicy, Firstname: fieldPolicy, Lastname: fieldPolicy }),
    PasswordPolicy: z.object({ MinLength: z.number() }),
  }),
  handler: async ({ ctx }) => selfRegistrationInfo(ctx),
});

export const registerEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/register',
  summary: 'Ask for an account: 202, and a verification link is mailed (the same answer when the address already has an account)',
  tags,
  auth: 'anonymous',
  rateLimit: 'register',
  body: z.object({
    Email: emailRule,
    UserName: z.string().max(128).nullish(),
    Firstname: z.string().max(100).nullish(),
    Lastname: z.string().max(100).nullish(),
    Password: z.string().max(PASSWORD_MAX_LENGTH).nullish(),
    InviteCode: z.string().max(100).nullish(),
    /** A continuation on this host (e.g. back to /connect/authorize), returned by verify-email. */
    Redirect: z.string().max(2000).nullish(),
  }),
  status: 202,
  response: z.object({}),
  handler: async ({ ctx, body, request }) => {
    await register(ctx, body, registrationAppId(ctx.realm, request.headers.get('host')));
    return {};
  },
});

export const verifyRegistrationEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/register/verify-email',
  summary: 'Prove the mailed registration link: the account is created and the person signed in (a login outcome)',
  tags,
  auth: 'anonymous',
  rateLimit: 'register-verify',
  body: z.object({ Token: z.string().min(1).max(200) }),
  response: z.intersection(loginOutcomeSchema, z.object({ redirect: z.string().optional() })),
  handler: async ({ ctx, body, headers }) => {
    const { outcome, redirect } = await verifyRegistration(ctx, body.Token);
    return { ...applySignInOutcome(outcome, headers), ...(redirect ? { redirect } : {}) };
  },
});

import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint';
import { sendEmailVerification } from '../domain/email-verification/send-email-verification';
import { verifyEmail } from '../domain/email-verification/verify-email';

// Confirming the signed-in user's address (spec 4.1; CONTRACT.md "Account bodies other tools rely on").
export const sendEmailVerificationEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/email/send-verification',
  summary: "Mail a verification link to the signed-in user's address (earlier links stop working); 409 when already confirmed",
  tags: ['Account'],
  auth: 'user',
  rateLimit: 'email-verification',
  response: z.object({ Sent: z.boolean() }),
  handler: async ({ ctx }) => {
    await sendEmailVerification(ctx);
    return { Sent: true };
  },
});

export const verifyEmailEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/email/verify',
  summary: 'Confirm the address with the mailed token (refused when the address changed since the link was sent)',
  tags: ['Account'],
  auth: 'anonymous',
  // Token redemption by the anonymous link's page: the verify-link policy (per source).
  rateLimit: 'register-verify',
  body: z.object({ Token: z.string().min(1).max(200) }),
  response: z.object({ EmailConfirmed: z.literal(true) }),
  handler: async ({ ctx, body }) => {
    await verifyEmail(ctx, body.Token);
    return { EmailConfirmed: true as const };
  },
});

import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint';
import { cancelProfileRequest } from '../domain/profile-requests/cancel-profile-request';
import { readOwnRequests } from '../domain/profile-requests/read-own-requests';
import { changeRequestSchema, ownRequestsSchema, profileRequestBodySchema, verifiedRequestSchema } from '../domain/profile-requests/schemas';
import { submitProfileRequest } from '../domain/profile-requests/submit-profile-request';
import { verifyProfileEmail } from '../domain/profile-requests/verify-profile-email';
import { jsonResponse } from '../http/respond';

// The signed-in user's profile change request (spec 3.4, 4.2; CONTRACT.md "Account bodies other
// tools rely on"). Profile fields are never written directly: they are asked for here and an
// administrator decides (change-request-endpoints.ts).
export const submitProfileRequestEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/account/profile/request',
  summary:
    'Ask for a profile change (Firstname, Lastname, Acronym, Email); 202 AwaitingEmailVerification when the address changes (a link goes to the new one), else 200 Open',
  tags: ['Account'],
  auth: 'user',
  rateLimit: 'profile-request',
  body: profileRequestBodySchema,
  response: changeRequestSchema,
  handler: async ({ ctx, body }) => {
    const { request, awaitingEmail } = await submitProfileRequest(ctx, body);
    // 200 and 202 share the body; the status says whether the new mailbox must answer first.
    return awaitingEmail ? jsonResponse(changeRequestSchema.parse(request), 202) : request;
  },
});

export const readProfileRequestEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/account/profile/request',
  summary: 'The pending change request, if any, and the last approved or rejected one',
  tags: ['Account'],
  auth: 'user',
  response: ownRequestsSchema,
  handler: async ({ ctx }) => readOwnRequests(ctx),
});

export const cancelProfileRequestEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/account/profile/request',
  summary: 'Cancel the pending change request',
  tags: ['Account'],
  auth: 'user',
  response: changeRequestSchema,
  handler: async ({ ctx }) => cancelProfileRequest(ctx),
});

export const verifyProfileEmailEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/account/profile/request/verify-email',
  summary: 'Confirm the new address of a change request with the mailed token; the request then waits for an administrator',
  tags: ['Account'],
  auth: 'anonymous',
  // Token redemption by the anonymous link's page: the verify-link policy (per source).
  rateLimit: 'register-verify',
  body: z.object({ Token: z.string().min(1).max(200) }),
  response: verifiedRequestSchema,
  handler: async ({ ctx, body }) => verifyProfileEmail(ctx, body.Token),
});

import { defineEndpoint } from '../http/endpoint';
import { pageSchema } from '../domain/paging';
import { approveChangeRequest, rejectChangeRequest } from '../domain/profile-requests/decide-change-request';
import { listChangeRequests } from '../domain/profile-requests/list-change-requests';
import { changeRequestListQuerySchema, changeRequestSchema, rejectBodySchema, requestIdParamsSchema } from '../domain/profile-requests/schemas';

// Administrators decide profile change requests (spec 3.4, 4.7 "User administration": user:write).
const common = { tags: ['Change requests'], auth: 'user', permission: 'user:write' } as const;

export const listChangeRequestsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/change-requests',
  summary:
    "Change requests (default: Open, oldest first; status=one or more of AwaitingEmailVerification,Open,Approved,Rejected,Cancelled; search by user), each with the user's current values",
  query: changeRequestListQuerySchema,
  response: pageSchema(changeRequestSchema),
  handler: async ({ ctx, query }) => listChangeRequests(ctx, query),
});

export const approveChangeRequestEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/change-requests/{id}/approve',
  summary: 'Apply an Open request to the user (a new address arrives confirmed); 409 ChangeRequest.NotOpen otherwise',
  params: requestIdParamsSchema,
  response: changeRequestSchema,
  handler: async ({ ctx, params }) => approveChangeRequest(ctx, params.id),
});

export const rejectChangeRequestEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/change-requests/{id}/reject',
  summary: 'Reject an Open request, optionally with a Reason the user sees; 409 ChangeRequest.NotOpen otherwise',
  params: requestIdParamsSchema,
  body: rejectBodySchema,
  response: changeRequestSchema,
  handler: async ({ ctx, params, body }) => rejectChangeRequest(ctx, params.id, body.Reason),
});

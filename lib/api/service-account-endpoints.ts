import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageQuerySchema, pageSchema } from '../domain/paging';
import { createServiceAccount } from '../domain/service-accounts/create-service-account';
import { deleteServiceAccount } from '../domain/service-accounts/delete-service-account';
import { getServiceAccount, listServiceAccounts } from '../domain/service-accounts/read-service-accounts';
import { createServiceAccountSchema, serviceAccountIdParamsSchema, serviceAccountSchema, updateServiceAccountSchema } from '../domain/service-accounts/schemas';
import { toServiceAccountDto } from '../domain/service-accounts/service-account-dto';
import { updateServiceAccount } from '../domain/service-accounts/update-service-account';

// Service-account endpoints (spec 4.7 "Service accounts", resource `service-account`; CONTRACT.md
// "Admin payloads"). Credentials: service-account-credential-endpoints.ts.
const common = { tags: ['Service accounts'], auth: 'user' } as const;

export const listServiceAccountsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/service-account',
  summary: 'List service accounts (search on name, sortBy name|createdAt)',
  permission: 'service-account:read',
  query: pageQuerySchema,
  response: pageSchema(serviceAccountSchema),
  handler: async ({ ctx, query }) => mapPage(await listServiceAccounts(ctx, query), toServiceAccountDto),
});

export const getServiceAccountEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/service-account/{id}',
  summary: 'Get a service account with its group ids and credential count',
  permission: 'service-account:read',
  params: serviceAccountIdParamsSchema,
  response: serviceAccountSchema,
  handler: async ({ ctx, params }) => toServiceAccountDto(await getServiceAccount(ctx, params.id)),
});

export const createServiceAccountEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/service-account',
  summary: 'Create a service account (its permissions come from the groups it joins)',
  permission: 'service-account:write',
  body: createServiceAccountSchema,
  response: serviceAccountSchema,
  status: 201,
  handler: async ({ ctx, body }) => toServiceAccountDto(await createServiceAccount(ctx, body)),
});

export const updateServiceAccountEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/service-account/{id}',
  summary: 'Change a service account (merge-patch; GroupIds replaces the memberships; IsActive false also disables its clients)',
  permission: 'service-account:write',
  params: serviceAccountIdParamsSchema,
  body: updateServiceAccountSchema,
  response: serviceAccountSchema,
  handler: async ({ ctx, params, body }) => toServiceAccountDto(await updateServiceAccount(ctx, params.id, body)),
});

export const deleteServiceAccountEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/service-account/{id}',
  summary: 'Delete a service account with its credentials and their OAuth clients, revoking their tokens',
  permission: 'service-account:write',
  params: serviceAccountIdParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => deleteServiceAccount(ctx, params.id),
});

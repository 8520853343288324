import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageSchema } from '../domain/paging';
import { toApiDto } from '../domain/oauth-apis/api-dto';
import { createApi } from '../domain/oauth-apis/create-api';
import { createImplicitScope } from '../domain/oauth-scopes/create-implicit-scope';
import { deleteApi } from '../domain/oauth-apis/delete-api';
import { getApi, listApis } from '../domain/oauth-apis/read-apis';
import { apiIdParamsSchema, apiListQuerySchema, apiSchema, createApiSchema, updateApiSchema } from '../domain/oauth-apis/schemas';
import { updateApi } from '../domain/oauth-apis/update-api';
import { toScopeDto } from '../domain/oauth-scopes/scope-dto';
import { scopeSchema } from '../domain/oauth-scopes/schemas';

// OAuth APIs, the resource servers tokens are issued for (spec 4.7 "OAuth APIs", resource
// `oauth-api`; CONTRACT.md "Admin payloads").
const common = { tags: ['OAuth APIs'], auth: 'user' } as const;

export const listOAuthApisEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/oauth/apis',
  summary: 'List OAuth APIs (search on name and audience; sortBy name|audience|createdAt)',
  permission: 'oauth-api:read',
  query: apiListQuerySchema,
  response: pageSchema(apiSchema),
  handler: async ({ ctx, query }) => mapPage(await listApis(ctx, query), toApiDto),
});

export const getOAuthApiEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/oauth/apis/{id}',
  summary: 'Get an OAuth API',
  permission: 'oauth-api:read',
  params: apiIdParamsSchema,
  response: apiSchema,
  handler: async ({ ctx, params }) => toApiDto(await getApi(ctx, params.id)),
});

export const createOAuthApiEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/oauth/apis',
  summary: 'Create an OAuth API (Audience: an absolute URI or a URN, unique and immutable)',
  permission: 'oauth-api:write',
  body: createApiSchema,
  response: apiSchema,
  status: 201,
  handler: async ({ ctx, body }) => toApiDto(await createApi(ctx, body)),
});

export const updateOAuthApiEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/admin/oauth/apis/{id}',
  summary: 'Change an OAuth API (merge-patch; the audience never changes)',
  permission: 'oauth-api:write',
  params: apiIdParamsSchema,
  body: updateApiSchema,
  response: apiSchema,
  handler: async ({ ctx, params, body }) => toApiDto(await updateApi(ctx, params.id, body)),
});

export const deleteOAuthApiEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/admin/oauth/apis/{id}',
  summary: 'Delete an OAuth API no scope grants (the built-in Management API cannot be deleted)',
  permission: 'oauth-api:write',
  params: apiIdParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => deleteApi(ctx, params.id),
});

export const createOAuthApiImplicitScopeEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/oauth/apis/{id}/create-implicit-scope',
  summary: "Create the scope named after the API's audience that grants exactly that audience",
  permission: 'oauth-scope:write',
  params: apiIdParamsSchema,
  response: scopeSchema,
  status: 201,
  handler: async ({ ctx, params }) => toScopeDto(await createImplicitScope(ctx, params.id)),
});

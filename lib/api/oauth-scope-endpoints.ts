import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageSchema } from '../domain/paging';
import { createScope } from '../domain/oauth-scopes/create-scope';
import { deleteScope } from '../domain/oauth-scopes/delete-scope';
import { getScope, listScopes } from '../domain/oauth-scopes/read-scopes';
import { toScopeDto } from '../domain/oauth-scopes/scope-dto';
import { createScopeSchema, scopeIdParamsSchema, scopeListQuerySchema, scopeSchema, updateScopeSchema } from '../domain/oauth-scopes/schemas';
import { updateScope } from '../domain/oauth-scopes/update-scope';

// OAuth scopes (spec 4.7 "OAuth scopes", resource `oauth-scope`).
const common = { tags: ['OAuth scopes'], auth: 'user' } as const;

export const listOAuthScopesEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/oauth/scopes',
  summary: 'List OAuth scopes (search on name; sortBy name|createdAt|builtIn)',
  permission: 'oauth-scope:read',
  query: scopeListQuerySchema,
  response: pageSchema(scopeSchema),
  handler: async ({ ctx, query }) => mapPage(await listScopes(ctx, query), toScopeDto),
});

export const getOAuthScopeEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/oauth/scopes/{id}',
  summary: 'Get an OAuth scope',
  permission: 'oauth-scope:read',
  params: scopeIdParamsSchema,
  response: scopeSchema,
  handler: async ({ ctx, params }) => toScopeDto(await getScope(ctx, params.id)),
});

export const createOAuthScopeEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/oauth/scopes',
  summary: 'Create an OAuth scope (Resources: audiences of existing APIs)',
  permission: 'oauth-scope:write',
  body: createScopeSchema,
  response: scopeSchema,
  status: 201,
  handler: async ({ ctx, body }) => toScopeDto(await createScope(ctx, body)),
});

export const updateOAuthScopeEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/admin/oauth/scopes/{id}',
  summary: 'Change an OAuth scope (merge-patch; built-in scopes keep their name and resources)',
  permission: 'oauth-scope:write',
  params: scopeIdParamsSchema,
  body: updateScopeSchema,
  response: scopeSchema,
  handler: async ({ ctx, params, body }) => toScopeDto(await updateScope(ctx, params.id, body)),
});

export const deleteOAuthScopeEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/admin/oauth/scopes/{id}',
  summary: 'Delete an OAuth scope no client lists (built-in scopes cannot be deleted)',
  permission: 'oauth-scope:write',
  params: scopeIdParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => deleteScope(ctx, params.id),
});

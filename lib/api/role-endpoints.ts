import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageSchema } from '../domain/paging';
import { createRole } from '../domain/roles/create-role';
import { deleteRole } from '../domain/roles/delete-role';
import { getRole, listRoles } from '../domain/roles/read-roles';
import { toRoleDto } from '../domain/roles/role-dto';
import { createRoleSchema, roleIdParamsSchema, roleListQuerySchema, roleSchema, updateRoleSchema } from '../domain/roles/schemas';
import { updateRole } from '../domain/roles/update-role';

// Role endpoints (spec 4.7 "Roles", resource `permission-role`; CONTRACT.md "Admin payloads").
const common = { tags: ['Roles'], auth: 'user' } as const;

export const listRolesEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/role',
  summary: 'List roles (search on name, appId filter, sortBy name|createdAt|app)',
  permission: 'permission-role:read',
  query: roleListQuerySchema,
  response: pageSchema(roleSchema),
  handler: async ({ ctx, query }) => mapPage(await listRoles(ctx, query), toRoleDto),
});

export const getRoleEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/role/{id}',
  summary: 'Get a role',
  permission: 'permission-role:read',
  params: roleIdParamsSchema,
  response: roleSchema,
  handler: async ({ ctx, params }) => toRoleDto(await getRole(ctx, params.id)),
});

export const createRoleEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/role',
  summary: "Create a role from its App's permission catalog",
  permission: 'permission-role:write',
  body: createRoleSchema,
  response: roleSchema,
  status: 201,
  handler: async ({ ctx, body }) => toRoleDto(await createRole(ctx, body)),
});

export const updateRoleEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/role/{id}',
  summary: 'Replace a role, including its permission set',
  permission: 'permission-role:write',
  params: roleIdParamsSchema,
  body: updateRoleSchema,
  response: roleSchema,
  handler: async ({ ctx, params, body }) => toRoleDto(await updateRole(ctx, params.id, body)),
});

export const deleteRoleEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/role/{id}',
  summary: 'Delete a role and its group links',
  permission: 'permission-role:write',
  params: roleIdParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => deleteRole(ctx, params.id),
});

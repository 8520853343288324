import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageQuerySchema, pageSchema } from '../domain/paging';
import { createGroup } from '../domain/groups/create-group';
import { deleteGroup } from '../domain/groups/delete-group';
import { listEffectiveMembers } from '../domain/groups/effective-members';
import { toGroupDto } from '../domain/groups/group-dto';
import { getGroup, listGroups } from '../domain/groups/read-groups';
import { createGroupSchema, effectiveMemberSchema, groupIdParamsSchema, groupSchema, updateGroupSchema } from '../domain/groups/schemas';
import { updateGroup } from '../domain/groups/update-group';

// Group endpoints (spec 4.7 "Groups", resource `authorization-group`; CONTRACT.md "Admin payloads").
const common = { tags: ['Groups'], auth: 'user' } as const;

export const listGroupsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/group',
  summary: 'List groups (search on name, sortBy name|createdAt)',
  permission: 'authorization-group:read',
  query: pageQuerySchema,
  response: pageSchema(groupSchema),
  handler: async ({ ctx, query }) => mapPage(await listGroups(ctx, query), toGroupDto),
});

export const getGroupEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/group/{id}',
  summary: 'Get a group with its roles, parents, children, BoundTo and member count',
  permission: 'authorization-group:read',
  params: groupIdParamsSchema,
  response: groupSchema,
  handler: async ({ ctx, params }) => toGroupDto(await getGroup(ctx, params.id)),
});

export const createGroupEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/group',
  summary: 'Create a group',
  permission: 'authorization-group:write',
  body: createGroupSchema,
  response: groupSchema,
  status: 201,
  handler: async ({ ctx, body }) => toGroupDto(await createGroup(ctx, body)),
});

export const updateGroupEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/group/{id}',
  summary: 'Replace a group (BoundTo is merge-patch: absent unchanged, [] dormant)',
  permission: 'authorization-group:write',
  params: groupIdParamsSchema,
  body: updateGroupSchema,
  response: groupSchema,
  handler: async ({ ctx, params, body }) => toGroupDto(await updateGroup(ctx, params.id, body)),
});

export const deleteGroupEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/group/{id}',
  summary: 'Delete a group with its memberships, role links and nesting',
  permission: 'authorization-group:write',
  params: groupIdParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => deleteGroup(ctx, params.id),
});

export const effectiveMembersEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/group/{id}/effective-members',
  summary: 'Direct members and members of nested groups, each with the chain that makes them a member',
  permission: 'authorization-group:read',
  params: groupIdParamsSchema,
  query: pageQuerySchema,
  response: pageSchema(effectiveMemberSchema),
  handler: async ({ ctx, params, query }) => listEffectiveMembers(ctx, params.id, query),
});

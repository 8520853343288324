import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageSchema } from '../domain/paging';
import { addUserToGroup } from '../domain/users/add-user-to-group';
import { createUser } from '../domain/users/create-user';
import { deleteUser, deleteUsers } from '../domain/users/delete-users';
import { effectiveGroups } from '../domain/users/effective-groups';
import { getUser, listUsers, lookupUsers } from '../domain/users/read-users';
import { removeUserFromGroup } from '../domain/users/remove-user-from-group';
import { restoreUser, restoreUsers } from '../domain/users/restore-users';
import {
  activeBodySchema,
  bulkDeleteResultSchema,
  bulkRestoreResultSchema,
  createUserSchema,
  groupIdBodySchema,
  idParamsSchema,
  idsBodySchema,
  lookupQuerySchema,
  membershipParamsSchema,
  membershipSchema,
  passwordBodySchema,
  updateUserSchema,
  userGroupSchema,
  userListQuerySchema,
  userLookupSchema,
  userSchema,
} from '../domain/users/schemas';
import { effectiveGroupsSchema } from '../domain/users/effective-groups-schema';
import { setUserActive } from '../domain/users/set-user-active';
import { setUserPassword } from '../domain/users/set-user-password';
import { updateUser } from '../domain/users/update-user';
import { listUserGroups } from '../domain/users/user-groups';
import { toUserDto } from '../domain/users/user-dto';

// User endpoints (spec 4.7 "Users", resource `user`; CONTRACT.md "Admin payloads").
const common = { tags: ['Users'], auth: 'user' } as const;

export const lookupUsersEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/user/lookup',
  summary: 'Active users for pickers (any signed-in user; at most 50)',
  query: lookupQuerySchema,
  response: z.array(userLookupSchema),
  handler: async ({ ctx, query }) => lookupUsers(ctx, query.search),
});

export const listUsersEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/user',
  summary: 'List users (search, sortBy userName|email|createdAt|lastname, includeDeleted, deleted, isActive)',
  permission: 'user:read',
  query: userListQuerySchema,
  response: pageSchema(userSchema),
  handler: async ({ ctx, query }) => mapPage(await listUsers(ctx, query), toUserDto),
});

export const getUserEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/user/{id}',
  summary: 'Get a user (soft-deleted ones too)',
  permission: 'user:read',
  params: idParamsSchema,
  response: userSchema,
  handler: async ({ ctx, params }) => toUserDto(await getUser(ctx, params.id)),
});

export const createUserEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/user',
  summary: 'Create a user',
  permission: 'user:write',
  body: createUserSchema,
  response: userSchema,
  status: 201,
  handler: async ({ ctx, body }) => toUserDto(await createUser(ctx, body)),
});

export const updateUserEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/user/{id}',
  summary: 'Change a user (merge-patch)',
  permission: 'user:write',
  params: idParamsSchema,
  body: updateUserSchema,
  response: userSchema,
  handler: async ({ ctx, params, body }) => toUserDto(await updateUser(ctx, params.id, body)),
});

export const deleteUserEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/user/{id}',
  summary: 'Soft-delete a user and end their sessions',
  permission: 'user:write',
  params: idParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => deleteUser(ctx, params.id),
});

export const deleteUsersEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/user',
  summary: 'Soft-delete several users (all or nothing); answers which ids were deleted and which were not found',
  permission: 'user:write',
  body: idsBodySchema,
  response: bulkDeleteResultSchema,
  handler: async ({ ctx, body }) => {
    const r = await deleteUsers(ctx, body.Ids);
    return { Deleted: r.deleted, NotFound: r.notFound };
  },
});

export const restoreUserEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/user/{id}/restore',
  summary: 'Restore a soft-deleted user',
  permission: 'user:write',
  params: idParamsSchema,
  response: userSchema,
  handler: async ({ ctx, params }) => toUserDto(await restoreUser(ctx, params.id)),
});

export const restoreUsersEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/user/restore',
  summary: 'Restore several soft-deleted users',
  permission: 'user:write',
  body: idsBodySchema,
  response: bulkRestoreResultSchema,
  handler: async ({ ctx, body }) => {
    const r = await restoreUsers(ctx, body.Ids);
    return { Restored: r.restored, NotFound: r.notFound };
  },
});

export const setUserPasswordEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/user/{id}/password',
  summary: "Set a user's password; ends their sessions",
  permission: 'user:write',
  params: idParamsSchema,
  body: passwordBodySchema,
  status: 204,
  handler: async ({ ctx, params, body }) => setUserPassword(ctx, params.id, body.Password),
});

export const setUserActiveEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/user/{id}/active',
  summary: 'Activate or deactivate a user; deactivation ends their sessions',
  permission: 'user:write',
  params: idParamsSchema,
  body: activeBodySchema,
  response: userSchema,
  handler: async ({ ctx, params, body }) => toUserDto(await setUserActive(ctx, params.id, body.IsActive)),
});

export const listUserGroupsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/user/{id}/groups',
  summary: "A user's groups, direct and inherited through nesting",
  permission: 'user:read',
  params: idParamsSchema,
  response: z.array(userGroupSchema),
  handler: async ({ ctx, params }) => listUserGroups(ctx, params.id),
});

export const effectiveGroupsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/user/{id}/effective-groups',
  summary: 'Live membership diagnostics: groups reached, BoundTo, dormancy, effective Apps, roles and permissions',
  permission: 'user:read',
  params: idParamsSchema,
  response: effectiveGroupsSchema,
  handler: async ({ ctx, params }) => effectiveGroups(ctx, params.id),
});

export const addUserToGroupEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/user/{id}/groups',
  summary: 'Add a user to a group (idempotent)',
  permission: 'user:write',
  params: idParamsSchema,
  body: groupIdBodySchema,
  response: membershipSchema,
  status: 201,
  handler: async ({ ctx, params, body }) => addUserToGroup(ctx, params.id, body.GroupId),
});

export const removeUserFromGroupEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/user/{id}/groups/{groupId}',
  summary: 'Remove a direct group membership',
  permission: 'user:write',
  params: membershipParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => removeUserFromGroup(ctx, params.id, params.groupId),
});

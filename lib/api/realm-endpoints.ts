import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageQuerySchema, pageSchema } from '../domain/paging';
import { createRealm } from '../domain/realms/create-realm';
import { deleteRealm } from '../domain/realms/delete-realm';
import { getRealm, listRealms } from '../domain/realms/read-realms';
import { toRealmDto } from '../domain/realms/realm-dto';
import { createRealmResponseSchema, createRealmSchema, patchRealmSchema, realmSchema, slugParamsSchema } from '../domain/realms/schemas';
import { adminInviteSchema, initialAdminSchema } from '../domain/invites/schemas';
import { transferControlPlane } from '../domain/realms/transfer-control-plane';
import { updateRealm } from '../domain/realms/update-realm';
import { inviteRealmAdmin } from '../domain/invites/issue-realm-admin-invite';
import { entitlementsResponseSchema, entitlementsSchema } from '../domain/entitlements/schemas';
import { setRealmEntitlements } from '../domain/entitlements/set-entitlements';

// Realm endpoints (spec 4.8): control-plane host only; any other host answers a bare 404.
const common = { tags: ['Realms'], auth: 'user', app: 'control-plane', controlPlaneOnly: true } as const;

export const listRealmsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/realms',
  summary: 'List realms',
  permission: 'realm:read',
  query: pageQuerySchema,
  response: pageSchema(realmSchema),
  handler: async ({ ctx, query }) => mapPage(await listRealms(ctx, query), toRealmDto),
});

export const getRealmEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/realms/{slug}',
  summary: 'Get a realm',
  permission: 'realm:read',
  params: slugParamsSchema,
  response: realmSchema,
  handler: async ({ ctx, params }) => toRealmDto(await getRealm(ctx, params.slug)),
});

export const createRealmEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/realms',
  summary: 'Create a realm (optionally with its first administrator invite)',
  permission: 'realm:write',
  body: createRealmSchema,
  response: createRealmResponseSchema,
  status: 201,
  handler: async ({ ctx, body }) => {
    const created = await createRealm(ctx, body);
    return { Realm: toRealmDto(created.realm), InitialAdminInvite: created.invite };
  },
});

export const patchRealmEndpoint = defineEndpoint({
  ...common,
  method: 'PATCH',
  path: '/api/admin/realms/{slug}',
  summary: 'Change a realm (merge-patch of DisplayName, Description, Domains, PrimaryDomain, IsActive)',
  permission: 'realm:write',
  params: slugParamsSchema,
  body: patchRealmSchema,
  response: realmSchema,
  handler: async ({ ctx, params, body }) => toRealmDto(await updateRealm(ctx, params.slug, body)),
});

export const deleteRealmEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/admin/realms/{slug}',
  summary: 'Deactivate a realm, or with hard=true drop it irreversibly',
  permission: 'realm:write',
  params: slugParamsSchema,
  query: z.object({ hard: z.enum(['true', 'false']).optional() }),
  status: 204,
  handler: async ({ ctx, params, query }) => deleteRealm(ctx, params.slug, query.hard === 'true'),
});

export const inviteRealmAdminEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/realms/{slug}/admin-invites',
  summary: "Issue the realm's single-use administrator invite (revokes earlier ones)",
  permission: 'realm:write',
  params: slugParamsSchema,
  body: initialAdminSchema,
  response: adminInviteSchema,
  status: 201,
  handler: async ({ ctx, params, body }) => inviteRealmAdmin(ctx, params.slug, body),
});

export const transferControlPlaneEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/realms/{slug}/transfer-control-plane',
  summary: 'Move the control-plane role to another realm',
  permission: 'control-plane:realm:write',
  params: slugParamsSchema,
  response: realmSchema,
  handler: async ({ ctx, params }) => toRealmDto(await transferControlPlane(ctx, params.slug)),
});

export const putRealmEntitlementsEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/admin/realms/{slug}/entitlements',
  summary: "Replace the realm's entitlements (MaxUsers, MaxOAuthClients; null or absent = unlimited)",
  permission: 'realm:write',
  params: slugParamsSchema,
  body: entitlementsSchema,
  response: entitlementsResponseSchema,
  handler: async ({ ctx, params, body }) => setRealmEntitlements(ctx, params.slug, body),
});

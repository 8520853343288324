import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageSchema } from '../domain/paging';
import { toClientDto } from '../domain/oauth-clients/client-dto';
import { createClientWithIntent } from '../domain/client-intents/create-client-with-intent';
import { createClientRequestSchema } from '../domain/client-intents/schemas';
import { deleteClient } from '../domain/oauth-clients/delete-client';
import { getClient, listClients } from '../domain/oauth-clients/read-clients';
import { regenerateClientSecret } from '../domain/oauth-clients/regenerate-client-secret';
import {
  clientIdParamsSchema,
  clientListQuerySchema,
  clientSchema,
  createdClientSchema,
  regeneratedSecretSchema,
  updateClientSchema,
} from '../domain/oauth-clients/schemas';
import { updateClient } from '../domain/oauth-clients/update-client';

// OAuth clients (spec 4.7 "OAuth clients", resource `oauth-client`; CONTRACT.md "Admin payloads").
// `{id}` is the client's Id or its ClientId. Only create also accepts a Management API bearer token.
const common = { tags: ['OAuth clients'], auth: 'user' } as const;

export const listOAuthClientsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/oauth/clients',
  summary:
    'List OAuth clients, including those of service-account credentials (search on client id and name; sortBy displayName|clientId|clientType|createdAt)',
  permission: 'oauth-client:read',
  query: clientListQuerySchema,
  response: pageSchema(clientSchema),
  handler: async ({ ctx, query }) => mapPage(await listClients(ctx, query), toClientDto),
});

export const getOAuthClientEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/oauth/clients/{id}',
  summary: 'Get an OAuth client by Id or ClientId (never its secret)',
  permission: 'oauth-client:read',
  params: clientIdParamsSchema,
  response: clientSchema,
  handler: async ({ ctx, params }) => toClientDto(await getClient(ctx, params.id)),
});

export const createOAuthClientEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/oauth/clients',
  summary:
    "Create an OAuth client; a confidential client's answer carries ClientSecret, shown this once. Scopes default to openid (none for a client_credentials-only client). PositionId makes it that position's terminal (also needs position:write); ServiceAccountId or NewServiceAccount { Name, Description? } makes it that service account's credential client (also needs service-account:write and every permission the account's groups confer)",
  permission: 'oauth-client:write',
  bearer: 'management',
  body: createClientRequestSchema,
  response: createdClientSchema,
  status: 201,
  handler: async ({ ctx, body }) => {
    const { row, secret } = await createClientWithIntent(ctx, body);
    return { ...toClientDto(row), ClientSecret: secret };
  },
});

export const updateOAuthClientEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/admin/oauth/clients/{id}',
  summary: 'Change an OAuth client (merge-patch; ClientId and ClientType are immutable; deactivating revokes its tokens)',
  permission: 'oauth-client:write',
  params: clientIdParamsSchema,
  body: updateClientSchema,
  response: clientSchema,
  handler: async ({ ctx, params, body }) => toClientDto(await updateClient(ctx, params.id, body)),
});

export const deleteOAuthClientEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/admin/oauth/clients/{id}',
  summary: 'Delete an OAuth client and revoke everything issued to it',
  permission: 'oauth-client:write',
  params: clientIdParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => deleteClient(ctx, params.id),
});

export const regenerateOAuthClientSecretEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/oauth/clients/{id}/regenerate-secret',
  summary: "Replace a confidential client's secret; the new one is shown this once (issued tokens stay valid)",
  permission: 'oauth-client:write',
  params: clientIdParamsSchema,
  response: regeneratedSecretSchema,
  handler: async ({ ctx, params }) => regenerateClientSecret(ctx, params.id),
});

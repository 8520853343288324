import { z } from 'zod';
import { createLoginProvider } from '../domain/login-providers/create-login-provider';
import { deleteLoginProvider } from '../domain/login-providers/delete-login-provider';
import { listFlavors } from '../domain/login-providers/flavors';
import { toProviderDto } from '../domain/login-providers/provider-dto';
import { getLoginProvider, listLoginProviders } from '../domain/login-providers/read-login-providers';
import {
  createLoginProviderSchema,
  flavorSchema,
  loginProviderSchema,
  providerSecretSchema,
  updateLoginProviderSchema,
} from '../domain/login-providers/schemas';
import { setProviderSecret } from '../domain/login-providers/set-provider-secret';
import { testLoginProvider } from '../domain/login-providers/test-connection';
import { updateLoginProvider } from '../domain/login-providers/update-login-provider';
import { mapPage, pageQuerySchema, pageSchema } from '../domain/paging';
import { defineEndpoint } from '../http/endpoint';

// Login providers (spec 2.5, 4.7 "Login providers", resource `login-provider`; CONTRACT.md
// "External identity"). Answers never carry a secret, only HasSecret.
const common = { tags: ['Login providers'], auth: 'user' } as const;
const idParams = z.object({ id: z.string().min(1).max(64) });

export const loginProviderFlavorsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/login-providers/flavors',
  summary: 'The external flavors (Oidc, Saml, Ldap, Kerberos), whether this server can run each, and its secret field',
  permission: 'login-provider:read',
  response: z.array(flavorSchema),
  handler: async ({ ctx }) => listFlavors(ctx),
});

export const listLoginProvidersEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/login-providers',
  summary: 'List login providers, the built-in Internal one first (search on name, flavor and slug; sortBy name|flavor|createdAt)',
  permission: 'login-provider:read',
  query: pageQuerySchema,
  response: pageSchema(loginProviderSchema),
  handler: async ({ ctx, query }) => mapPage(await listLoginProviders(ctx, query), (row) => toProviderDto(ctx.realm, row)),
});

export const getLoginProviderEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/login-providers/{id}',
  summary: 'Get a login provider (never its secret)',
  permission: 'login-provider:read',
  params: idParams,
  response: loginProviderSchema,
  handler: async ({ ctx, params }) => toProviderDto(ctx.realm, await getLoginProvider(ctx, params.id)),
});

export const createLoginProviderEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/login-providers',
  summary: 'Create an OIDC, SAML, LDAP or Kerberos login provider; set its secret with POST {id}/secret',
  permission: 'login-provider:write',
  body: createLoginProviderSchema,
  response: loginProviderSchema,
  status: 201,
  handler: async ({ ctx, body }) => toProviderDto(ctx.realm, await createLoginProvider(ctx, body)),
});

export const updateLoginProviderEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/admin/login-providers/{id}',
  summary: 'Replace a login provider’s settings (Flavor never changes; the built-in provider cannot be edited)',
  permission: 'login-provider:write',
  params: idParams,
  body: updateLoginProviderSchema,
  response: loginProviderSchema,
  handler: async ({ ctx, params, body }) => toProviderDto(ctx.realm, await updateLoginProvider(ctx, params.id, body)),
});

export const deleteLoginProviderEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/admin/login-providers/{id}',
  summary: 'Delete a login provider and its external links (the built-in provider cannot be deleted)',
  permission: 'login-provider:write',
  params: idParams,
  status: 204,
  handler: async ({ ctx, params }) => deleteLoginProvider(ctx, params.id),
});

export const setLoginProviderSecretEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/login-providers/{id}/secret',
  summary: 'Set the provider’s secret: { ClientSecret } (Oidc), { BindPassword } (Ldap) or { Keytab } (Kerberos, base64); stored encrypted, never answered',
  permission: 'login-provider:write',
  params: idParams,
  body: providerSecretSchema,
  status: 204,
  handler: async ({ ctx, params, body }) => setProviderSecret(ctx, params.id, body),
});

export const testLoginProviderEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/login-providers/{id}/test',
  summary: 'Test the connection: LDAP binds as the service account and searches the base; OIDC reads the discovery document',
  permission: 'login-provider:write',
  params: idParams,
  response: z.object({ Ok: z.boolean(), Reason: z.string().nullish(), Entries: z.number().nullish() }),
  handler: async ({ ctx, params }) => testLoginProvider(ctx, params.id),
});

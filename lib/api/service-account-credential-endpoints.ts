import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageQuerySchema, pageSchema } from '../domain/paging';
import { createCredential } from '../domain/service-accounts/create-credential';
import { toCredentialDto } from '../domain/service-accounts/credential-dto';
import {
  createCredentialSchema,
  credentialParamsSchema,
  credentialSchema,
  issuedCredentialSchema,
  updateCredentialSchema,
} from '../domain/service-accounts/credential-schemas';
import { deleteCredential } from '../domain/service-accounts/delete-credential';
import { listCredentials } from '../domain/service-accounts/list-credentials';
import { rotateCredential } from '../domain/service-accounts/rotate-credential';
import { serviceAccountIdParamsSchema } from '../domain/service-accounts/schemas';
import { updateCredential } from '../domain/service-accounts/update-credential';

// Service-account credential endpoints (spec 4.7 "Credentials"; CONTRACT.md "Admin payloads"). Each
// credential is an OAuth client for grant_type=client_credentials; its secret appears only in the
// answers to create and rotate.
const common = { tags: ['Service accounts'], auth: 'user' } as const;
const base = '/api/service-account/{id}/credentials';

export const listCredentialsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: base,
  summary: "List a service account's credentials, newest first (never their secrets)",
  permission: 'service-account:read',
  params: serviceAccountIdParamsSchema,
  query: pageQuerySchema.pick({ page: true, pageSize: true }),
  response: pageSchema(credentialSchema),
  handler: async ({ ctx, params, query }) => mapPage(await listCredentials(ctx, params.id, query), (c) => toCredentialDto(c)),
});

export const createCredentialEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: base,
  summary: 'Create a credential: a confidential client_credentials client; the answer carries ClientSecret once',
  permission: 'service-account:write',
  params: serviceAccountIdParamsSchema,
  body: createCredentialSchema,
  response: issuedCredentialSchema,
  status: 201,
  handler: async ({ ctx, params, body }) => createCredential(ctx, params.id, body),
});

export const updateCredentialEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: `${base}/{credId}`,
  summary: "Change a credential's DisplayName, Scopes or ExpiresAt (merge-patch)",
  permission: 'service-account:write',
  params: credentialParamsSchema,
  body: updateCredentialSchema,
  response: credentialSchema,
  handler: async ({ ctx, params, body }) => updateCredential(ctx, params.id, params.credId, body),
});

export const rotateCredentialEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: `${base}/{credId}/rotate`,
  summary: 'Replace the secret (answered once); the old secret and the tokens stored for the client stop working at once',
  permission: 'service-account:write',
  params: credentialParamsSchema,
  response: issuedCredentialSchema,
  handler: async ({ ctx, params }) => rotateCredential(ctx, params.id, params.credId),
});

export const deleteCredentialEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: `${base}/{credId}`,
  summary: 'Delete a credential with its OAuth client, revoking its tokens',
  permission: 'service-account:write',
  params: credentialParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => deleteCredential(ctx, params.id, params.credId),
});

import { z } from 'zod';
import { pageQuerySchema } from '../paging';
import { scopeNameSchema } from '../oauth-scopes/scope-name';
import { ACCESS_TOKEN_TYPES, CLIENT_TYPES, CONSENT_TYPES } from './client-rules';
import { MAX_REDIRECT_URI_LENGTH } from './redirect-uri';

// Wire shapes of /api/admin/oauth/clients (spec 4.7 "OAuth clients", resource `oauth-client`;
// CONTRACT.md "Admin payloads": the create field names are fixed). The answer schemas are the
// allow-list: the secret's hash is not in them, and the plaintext secret only in the create and
// regenerate-secret answers.

/** Client ids travel in URLs and in HTTP Basic credentials: unreserved URL characters only. */
const clientId = z
  .string()
  .trim()
  .max(200)
  .regex(/^[A-Za-z0-9._~-]*$/, 'Use letters, digits and . _ ~ - only.');
const uriList = z.array(z.string().trim().min(1).max(MAX_REDIRECT_URI_LENGTH)).max(50);
// Grant types and capabilities are checked in client-rules.ts, which names the unknown ones.
const grantTypes = z.array(z.string().trim().min(1).max(200)).max(20);
const capabilities = z.array(z.string().trim().min(1).max(100)).max(10);
const scopes = z.array(scopeNameSchema).max(100);
const displayName = z.string().trim().min(1, 'Enter a display name.').max(200);
const description = z.string().max(2000);
const appId = z.string().trim().max(64);

export const createClientSchema = z.object({
  /** Omitted or blank: a random url-safe id is generated. */
  ClientId: clientId.nullish(),
  DisplayName: displayName,
  Description: description.nullish(),
  ClientType: z.enum(CLIENT_TYPES),
  /** Default Explicit. */
  ConsentType: z.enum(CONSENT_TYPES).nullish(),
  /** Default Jwt. */
  AccessTokenType: z.enum(ACCESS_TOKEN_TYPES).nullish(),
  RedirectUris: uriList.nullish(),
  PostLogoutRedirectUris: uriList.nullish(),
  GrantTypes: grantTypes,
  Scopes: scopes.nullish(),
  /** The App whose roles and permissions the `roles` and `permissions` scopes carry. */
  AppId: appId.nullish(),
  Capabilities: capabilities.nullish(),
  IsActive: z.boolean().nullish(),
});
export type CreateClientInput = z.infer<typeof createClientSchema>;

/**
 * Merge-patch (spec 4.9). ClientId and ClientType never change: null or the current value is
 * accepted (a client may send back what it read), another value is refused. ConsentType and
 * AccessTokenType ignore null; lists are replaced entirely and [] (or null) clears them.
 */
export const updateClientSchema = z.object({
  ClientId: clientId.nullish(),
  DisplayName: z.union([displayName, z.literal('')]).nullish(),
  Description: description.nullish(),
  ClientType: z.enum(CLIENT_TYPES).nullish(),
  ConsentType: z.enum(CONSENT_TYPES).nullish(),
  AccessTokenType: z.enum(ACCESS_TOKEN_TYPES).nullish(),
  RedirectUris: uriList.nullish(),
  PostLogoutRedirectUris: uriList.nullish(),
  GrantTypes: grantTypes.nullish(),
  Scopes: scopes.nullish(),
  AppId: appId.nullish(),
  Capabilities: capabilities.nullish(),
  IsActive: z.boolean().nullish(),
});
export type UpdateClientInput = z.infer<typeof updateClientSchema>;

export const clientListQuerySchema = pageQuerySchema.extend({ clientType: z.enum(CLIENT_TYPES).optional() });
export type ClientListQuery = z.infer<typeof clientListQuerySchema>;

export const clientIdParamsSchema = z.object({ id: z.string().min(1).max(200) });

export const clientSchema = z.object({
  Id: z.string(),
  ClientId: z.string(),
  DisplayName: z.string(),
  Description: z.string().nullish(),
  /** Public or Confidential. */
  ClientType: z.string(),
  ConsentType: z.string(),
  AccessTokenType: z.string(),
  RedirectUris: z.array(z.string()),
  PostLogoutRedirectUris: z.array(z.string()),
  GrantTypes: z.array(z.string()),
  Scopes: z.array(z.string()),
  Capabilities: z.array(z.string()),
  AppId: z.string().nullish(),
  /** Set on the client behind a service-account credential: manage it through the service account. */
  ServiceAccountId: z.string().nullish(),
  /** Set on a position's terminal (spec 4.7 "Positions"); its tokens carry `position_id`. */
  PositionId: z.string().nullish(),
  /** Registered through dynamic client registration. */
  IsDynamic: z.boolean(),
  IsActive: z.boolean(),
  SecretCreatedAt: z.date().nullish(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type ClientDto = z.infer<typeof clientSchema>;

/** The create answer: the client, and for a confidential client its secret, shown this once. */
export const createdClientSchema = clientSchema.extend({ ClientSecret: z.string().optional() });

export const regeneratedSecretSchema = z.object({ ClientId: z.string(), ClientSecret: z.string() });

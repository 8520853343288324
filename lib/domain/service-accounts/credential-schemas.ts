import { z } from 'zod';

// Wire shapes of /api/service-account/{id}/credentials (spec 4.7 "Credentials"; CONTRACT.md:
// DisplayName?, Scopes?, ExpiresAt?; the answer carries ClientId and, once, ClientSecret). The
// answers are allow-lists: the secret's digest never leaves, and the secret itself only in the
// answers to create and rotate.

const displayName = z.string().trim().max(200);
/** Names of OAuthScope rows; each must exist (credential-scopes.ts). */
const scopes = z.array(z.string().trim().min(1).max(200)).max(100);
const expiresAt = z.iso.datetime({ offset: true });

export const createCredentialSchema = z.object({
  DisplayName: displayName.nullish(),
  Scopes: scopes.nullish(),
  ExpiresAt: expiresAt.nullish(),
});
export type CreateCredentialInput = z.infer<typeof createCredentialSchema>;

// Merge-patch (spec 4.9): DisplayName null or "" falls back to the account's name, Scopes is
// replaced when present ([] or null = none), ExpiresAt null or "" = never expires.
export const updateCredentialSchema = z.object({
  DisplayName: displayName.nullish(),
  Scopes: scopes.nullish(),
  ExpiresAt: z.union([expiresAt, z.literal('')]).nullish(),
});
export type UpdateCredentialInput = z.infer<typeof updateCredentialSchema>;

export const credentialSchema = z.object({
  Id: z.string(),
  ServiceAccountId: z.string(),
  /** The OAuth client_id to present at /connect/token with grant_type=client_credentials. */
  ClientId: z.string(),
  DisplayName: z.string(),
  Scopes: z.array(z.string()),
  ExpiresAt: z.date().nullish(),
  IsExpired: z.boolean(),
  CreatedAt: z.date(),
  RotatedAt: z.date().nullish(),
  LastUsedAt: z.date().nullish(),
});
export type CredentialDto = z.infer<typeof credentialSchema>;

/** The answer to create and rotate: the plaintext secret, shown this once. */
export const issuedCredentialSchema = credentialSchema.extend({ ClientSecret: z.string() });
export type IssuedCredentialDto = z.infer<typeof issuedCredentialSchema>;

export const credentialParamsSchema = z.object({ id: z.string().min(1).max(64), credId: z.string().min(1).max(64) });

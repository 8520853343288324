import { z } from 'zod';

// Wire shapes of /api/service-account (spec 4.7 "Service accounts", resource `service-account`;
// CONTRACT.md "Admin payloads": Name, Description?, GroupIds?). Credentials: credential-schemas.ts.

const name = z
  .string()
  .trim()
  .min(1, 'Enter a name.')
  .max(200)
  .regex(/^[^\p{C}]+$/u, 'Use no control characters.');
const description = z.string().max(2000).nullish();
/** Groups the account belongs to; its permissions come from them as a user's do (spec 5.7). */
const groupIds = z.array(z.string().trim().min(1).max(64)).max(200);

export const createServiceAccountSchema = z.object({
  Name: name,
  Description: description,
  GroupIds: groupIds.nullish(),
  IsActive: z.boolean().nullish(),
});
export type CreateServiceAccountInput = z.infer<typeof createServiceAccountSchema>;

// Merge-patch (spec 4.9): Name is the natural key (null or blank = unchanged), Description clears
// with null or "", GroupIds replaces every membership when present ([] or null = none), IsActive is
// only set with true or false.
export const updateServiceAccountSchema = z.object({
  Name: z.union([name, z.literal('')]).nullish(),
  Description: description,
  GroupIds: groupIds.nullish(),
  IsActive: z.boolean().nullish(),
});
export type UpdateServiceAccountInput = z.infer<typeof updateServiceAccountSchema>;

export const serviceAccountSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Description: z.string().nullish(),
  IsActive: z.boolean(),
  GroupIds: z.array(z.string()),
  CredentialCount: z.number(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type ServiceAccountDto = z.infer<typeof serviceAccountSchema>;

export const serviceAccountIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

import { z } from 'zod';
import { pageQuerySchema } from '../paging';
import { scopeNameSchema } from './scope-name';

// Wire shapes of /api/admin/oauth/scopes (spec 4.7 "OAuth scopes", resource `oauth-scope`).

/** API audiences the scope grants access to (the `aud` its access tokens may carry). */
const resources = z.array(z.string().trim().min(1).max(500)).max(50);
const displayName = z.string().max(200);
const description = z.string().max(2000);

export const createScopeSchema = z.object({
  Name: scopeNameSchema,
  DisplayName: displayName.nullish(),
  Description: description.nullish(),
  Resources: resources.nullish(),
});
export type CreateScopeInput = z.infer<typeof createScopeSchema>;

/** Merge-patch (spec 4.9): Name is the natural key (null or blank = unchanged); [] clears Resources. */
export const updateScopeSchema = z.object({
  Name: z.union([scopeNameSchema, z.literal('')]).nullish(),
  DisplayName: displayName.nullish(),
  Description: description.nullish(),
  Resources: resources.nullish(),
});
export type UpdateScopeInput = z.infer<typeof updateScopeSchema>;

export const scopeListQuerySchema = pageQuerySchema;
export type ScopeListQuery = z.infer<typeof scopeListQuerySchema>;

export const scopeIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const scopeSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  DisplayName: z.string().nullish(),
  Description: z.string().nullish(),
  Resources: z.array(z.string()),
  IsBuiltIn: z.boolean(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type ScopeDto = z.infer<typeof scopeSchema>;

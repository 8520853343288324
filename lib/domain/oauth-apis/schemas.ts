import { z } from 'zod';
import { pageQuerySchema } from '../paging';
import { audienceProblem, MAX_AUDIENCE_LENGTH } from './audience';

// Wire shapes of /api/admin/oauth/apis (spec 4.7 "OAuth APIs", resource `oauth-api`; CONTRACT.md
// "Admin payloads": Name, Audience, DisplayName? are fixed).

const name = z.string().trim().min(1).max(200);
const audience = z
  .string()
  .trim()
  .min(1)
  .max(MAX_AUDIENCE_LENGTH)
  .superRefine((value, ctx) => {
    const problem = audienceProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `The audience ${problem}` });
  });
const displayName = z.string().max(200);
const description = z.string().max(2000);
const appId = z.string().trim().max(64);

export const createApiSchema = z.object({
  Name: name,
  /** The resource indicator and `aud` of the API's access tokens; unique and immutable. */
  Audience: audience,
  DisplayName: displayName.nullish(),
  Description: description.nullish(),
  /** The App whose catalog the API serves. */
  AppId: appId.nullish(),
});
export type CreateApiInput = z.infer<typeof createApiSchema>;

/**
 * Merge-patch (spec 4.9). Name is a natural key (null or blank = unchanged). Audience never changes:
 * null or the current value is accepted (a client may send back what it read), another is refused.
 */
export const updateApiSchema = z.object({
  Name: z.union([name, z.literal('')]).nullish(),
  Audience: z.string().trim().max(MAX_AUDIENCE_LENGTH).nullish(),
  DisplayName: displayName.nullish(),
  Description: description.nullish(),
  AppId: appId.nullish(),
});
export type UpdateApiInput = z.infer<typeof updateApiSchema>;

export const apiListQuerySchema = pageQuerySchema;
export type ApiListQuery = z.infer<typeof apiListQuerySchema>;

export const apiIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const apiSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Audience: z.string(),
  DisplayName: z.string().nullish(),
  Description: z.string().nullish(),
  AppId: z.string().nullish(),
  IsBuiltIn: z.boolean(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type ApiDto = z.infer<typeof apiSchema>;

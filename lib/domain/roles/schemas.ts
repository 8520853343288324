import { z } from 'zod';
import { pageQuerySchema } from '../paging';

// Wire shapes of /api/role (spec 4.7 "Roles", resource `permission-role`; CONTRACT.md).

export const createRoleSchema = z.object({
  Name: z.string().trim().min(1, 'Enter a name.').max(200),
  /** The App whose permission catalog the role draws on. */
  AppId: z.string().trim().min(1, 'Choose an application.').max(64),
  Permissions: z.array(z.string().max(200)).max(500),
  Description: z.string().max(2000).nullish(),
});
export type CreateRoleInput = z.infer<typeof createRoleSchema>;

/** PUT is a full replace including the permission set (spec 4.7); an absent Description clears it. */
export const updateRoleSchema = createRoleSchema;
export type UpdateRoleInput = z.infer<typeof updateRoleSchema>;

export const roleListQuerySchema = pageQuerySchema.extend({ appId: z.string().max(64).optional() });
export type RoleListQuery = z.infer<typeof roleListQuerySchema>;

export const roleSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Description: z.string().nullish(),
  AppId: z.string(),
  AppSlug: z.string(),
  Permissions: z.array(z.string()),
  IsBuiltIn: z.boolean(),
  /** Groups that hold the role. */
  GroupIds: z.array(z.string()),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type RoleDto = z.infer<typeof roleSchema>;

export const roleIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

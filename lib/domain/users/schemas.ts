import { z } from 'zod';
import { pageQuerySchema } from '../paging';

// Wire shapes of /api/user (spec 4.7 "Users", CONTRACT.md "Admin payloads"). Request names match
// case-insensitively; answers omit nulls. The user answer never carries the password hash or the
// security stamp: the response schema is the allow-list.

const userName = z
  .string()
  .trim()
  .min(1, 'Enter a user name.')
  .max(128)
  .regex(/^[^\s\p{C}]+$/u, 'Use no spaces or control characters.');
const email = z.email('Enter a valid e-mail address.').max(254);
const personName = z.string().max(100);
const acronym = z.string().max(16);
/** The rules of a user's own fields, for other ways of setting them (an external sign-in's UserUpdateScript). */
export const userFieldRules = { userName, email, personName, acronym };

export const createUserSchema = z.object({
  UserName: userName,
  Email: email,
  Firstname: personName.nullish(),
  Lastname: personName.nullish(),
  Acronym: acronym.nullish(),
  Password: z.string().max(1024).nullish(),
  IsActive: z.boolean().nullish(),
  EmailConfirmed: z.boolean().nullish(),
});
export type CreateUserInput = z.infer<typeof createUserSchema>;

// Merge-patch (spec 4.9): natural keys and booleans ignore null (and blank keys), optional names
// clear with null or "". The password has its own endpoint so that setting it is audited as such.
export const updateUserSchema = z.object({
  UserName: z.union([userName, z.literal('')]).nullish(),
  Email: z.union([email, z.literal('')]).nullish(),
  Firstname: personName.nullish(),
  Lastname: personName.nullish(),
  Acronym: acronym.nullish(),
  IsActive: z.boolean().nullish(),
  EmailConfirmed: z.boolean().nullish(),
  Password: z.undefined({ error: 'Use PUT /api/user/{id}/password.' }).optional(),
});
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1'));

/** includeDeleted=true lists everyone; deleted=true lists only soft-deleted users (the bin). */
export const userListQuerySchema = pageQuerySchema.extend({ includeDeleted: flag, deleted: flag, isActive: flag });
export type UserListQuery = z.infer<typeof userListQuerySchema>;

export const lookupQuerySchema = z.object({ search: z.string().max(200).optional() });

export const idsBodySchema = z.object({ Ids: z.array(z.string().trim().min(1).max(64)).min(1).max(500) });
export const passwordBodySchema = z.object({ Password: z.string().min(1, 'Enter a password.').max(1024) });
export const activeBodySchema = z.object({ IsActive: z.boolean() });
export const groupIdBodySchema = z.object({ GroupId: z.string().trim().min(1).max(64) });

export const idParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const membershipParamsSchema = z.object({ id: z.string().min(1).max(64), groupId: z.string().min(1).max(64) });

export const userSchema = z.object({
  Id: z.string(),
  UserName: z.string(),
  Email: z.string(),
  EmailConfirmed: z.boolean(),
  Firstname: z.string().nullish(),
  Lastname: z.string().nullish(),
  Acronym: z.string().nullish(),
  DisplayName: z.string(),
  IsActive: z.boolean(),
  IsDeleted: z.boolean(),
  DeletedAt: z.date().nullish(),
  HasPassword: z.boolean(),
  LastLoginAt: z.date().nullish(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type UserDto = z.infer<typeof userSchema>;

export const userLookupSchema = z.object({ Id: z.string(), UserName: z.string(), DisplayName: z.string() });

export const bulkDeleteResultSchema = z.object({ Deleted: z.array(z.string()), NotFound: z.array(z.string()) });
export const bulkRestoreResultSchema = z.object({ Restored: z.array(z.string()), NotFound: z.array(z.string()) });

export const groupRefSchema = z.object({ Id: z.string(), Name: z.string() });

export const userGroupSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Description: z.string().nullish(),
  BoundTo: z.array(z.string()),
  IsBuiltIn: z.boolean(),
  Direct: z.boolean(),
  /** From one of the user's own groups up to this one, both ends included. */
  Path: z.array(groupRefSchema),
});

export const membershipSchema = z.object({ UserId: z.string(), GroupId: z.string(), GroupName: z.string(), CreatedAt: z.date() });

import { z } from 'zod';

// Wire shapes of /api/group (spec 4.7 "Groups", resource `authorization-group`; CONTRACT.md).

const name = z.string().trim().min(1, 'Enter a name.').max(200);
const description = z.string().max(2000).nullish();
const ids = z.array(z.string().trim().min(1).max(64)).max(200);
/** App slugs or "*"; [] makes the group dormant (spec 5.7.3). */
const boundTo = z.array(z.string().trim().min(1).max(100)).max(100);

export const createGroupSchema = z.object({
  Name: name,
  Description: description,
  BoundTo: boundTo.nullish(),
  RoleIds: ids.nullish(),
  ParentGroupIds: ids.nullish(),
});
export type CreateGroupInput = z.infer<typeof createGroupSchema>;

// PUT is a full replace (absent RoleIds or ParentGroupIds clear them, absent Description clears it)
// except BoundTo, which is merge-patch: absent or null leaves it, [] makes the group dormant (spec 4.7).
export const updateGroupSchema = createGroupSchema;
export type UpdateGroupInput = z.infer<typeof updateGroupSchema>;

export const groupSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Description: z.string().nullish(),
  BoundTo: z.array(z.string()),
  Dormant: z.boolean(),
  IsBuiltIn: z.boolean(),
  RoleIds: z.array(z.string()),
  ParentGroupIds: z.array(z.string()),
  ChildGroupIds: z.array(z.string()),
  /** Direct members that are not deleted. */
  MemberCount: z.number(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type GroupDto = z.infer<typeof groupSchema>;

export const effectiveMemberSchema = z.object({
  Kind: z.enum(['User', 'ServiceAccount']),
  Id: z.string(),
  /** Users only: the same as Id (kept for clients written before service accounts were members). */
  UserId: z.string().nullish(),
  /** Users only. */
  UserName: z.string().nullish(),
  DisplayName: z.string(),
  IsActive: z.boolean(),
  Direct: z.boolean(),
  /** From the member's own group up to this one, both ends included. */
  Via: z.array(z.object({ Id: z.string(), Name: z.string() })),
});

export const groupIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

import { z } from 'zod';
import { groupRefSchema } from './schemas';

// Answer of GET /api/user/{id}/effective-groups (spec 4.7, 5.7).
export const effectiveGroupsSchema = z.object({
  UserId: z.string(),
  UserName: z.string(),
  /** Active and not deleted: only then does any membership take effect. */
  Live: z.boolean(),
  Groups: z.array(
    z.object({
      Id: z.string(),
      Name: z.string(),
      BoundTo: z.array(z.string()),
      Dormant: z.boolean(),
      EffectiveFor: z.array(z.string()),
      UnknownApps: z.array(z.string()),
      Direct: z.boolean(),
      Path: z.array(groupRefSchema),
      Roles: z.array(z.object({ Id: z.string(), Name: z.string(), AppSlug: z.string(), Effective: z.boolean() })),
    }),
  ),
  Permissions: z.array(z.object({ App: z.string(), Permissions: z.array(z.string()) })),
});

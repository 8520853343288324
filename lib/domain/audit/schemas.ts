import { z } from 'zod';

// One entry of the security log or the platform audit (spec 4.7 "Logs"), as the log endpoints answer
// it and the console shows it.
export const logEntrySchema = z.object({
  Id: z.string(),
  CreatedAt: z.date(),
  Category: z.string(),
  EventType: z.string(),
  Success: z.boolean().optional(),
  UserId: z.string().nullish(),
  UserName: z.string().nullish(),
  IpAddress: z.string().nullish(),
  UserAgent: z.string().nullish(),
  RealmSlug: z.string().nullish(),
  ActorId: z.string().nullish(),
  ActorRealm: z.string().nullish(),
  TargetId: z.string().nullish(),
  Detail: z.unknown().optional(),
});

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

// The filters both logs take (spec 4.7 "Logs": category, eventType, limit), and for the security log
// the person and a time window. A bare day means the whole day (UTC): `from` its start, `to` its end.
const DAY_OR_INSTANT = 'Enter a date like 2025-05-01, or a date and time like 2025-05-01T08:00:00Z.';
const day = /^\d{4}-\d{2}-\d{2}$/;
const boundary = (edge: 'start' | 'end') =>
  z
    .string()
    .trim()
    .refine((s) => (day.test(s) ? z.iso.date().safeParse(s).success : z.iso.datetime({ offset: true }).safeParse(s).success), DAY_OR_INSTANT)
    .transform((s) => (day.test(s) ? new Date(`${s}T${edge === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`) : new Date(s)));

const baseLogQuery = z.object({
  category: z.string().max(100).optional(),
  eventType: z.string().max(100).optional(),
  from: boundary('start').optional(),
  to: boundary('end').optional(),
  limit: z.coerce
    .number({ error: 'Enter a whole number.' })
    .int('Enter a whole number.')
    .min(1, 'Use at least 1.')
    .default(100)
    .transform((n) => Math.min(n, 1000)),
});

const windowInOrder = (q: { from?: Date; to?: Date }) => !q.from || !q.to || q.from.getTime() <= q.to.getTime();
const windowMessage = { message: 'The end must not be before the start.', path: ['to'] };

export const platformLogQuerySchema = baseLogQuery.refine(windowInOrder, windowMessage);

export const securityLogQuerySchema = baseLogQuery
  .extend({
    /** The person: entries they caused, and entries about them (an administrator's change to their account). */
    userId: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{1,64}$/, 'Enter a user id.')
      .optional(),
  })
  .refine(windowInOrder, windowMessage);

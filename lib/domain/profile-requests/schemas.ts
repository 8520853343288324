import { z } from 'zod';
import { pageQuerySchema } from '../paging';

// Wire shapes of profile change requests (spec 3.4, 4.2, 4.7 "User administration"; CONTRACT.md
// "Account bodies other tools rely on"). In `Changes`, "" means the field is to be cleared (the
// wire omits nulls, so null could not say it).

export const CHANGE_REQUEST_STATUSES = ['AwaitingEmailVerification', 'Open', 'Approved', 'Rejected', 'Cancelled'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];
/** The request a user may have at most one of: waiting for the new mailbox, or for an administrator. */
export const PENDING_STATUSES: ChangeRequestStatus[] = ['AwaitingEmailVerification', 'Open'];
/** Terminal states an administrator decided. */
export const DECIDED_STATUSES: ChangeRequestStatus[] = ['Approved', 'Rejected'];

const personName = z.string().max(100, 'Use at most 100 characters.');
const acronym = z.string().max(16, 'Use at most 16 characters.');

/** Absent: not part of the request. Firstname, Lastname, Acronym: null or "" asks to clear. */
export const profileRequestBodySchema = z.object({
  Firstname: personName.nullish(),
  Lastname: personName.nullish(),
  Acronym: acronym.nullish(),
  Email: z.union([z.email('Enter a valid e-mail address.').max(254), z.literal('')]).nullish(),
});
export type ProfileRequestInput = z.infer<typeof profileRequestBodySchema>;

export const profileFieldsSchema = z.object({
  Firstname: z.string().optional(),
  Lastname: z.string().optional(),
  Acronym: z.string().optional(),
  Email: z.string().optional(),
});
export type ProfileFields = z.infer<typeof profileFieldsSchema>;

export const changeRequestSchema = z.object({
  Id: z.string(),
  UserId: z.string(),
  UserName: z.string().optional(),
  Status: z.enum(CHANGE_REQUEST_STATUSES),
  Changes: profileFieldsSchema,
  /** The user's values now (administrator answers), to show beside the requested ones. */
  Current: profileFieldsSchema.optional(),
  Reason: z.string().nullish(),
  DecidedAt: z.date().nullish(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type ChangeRequestDto = z.infer<typeof changeRequestSchema>;

export const ownRequestsSchema = z.object({ Open: changeRequestSchema.optional(), LastDecided: changeRequestSchema.optional() });

export const verifiedRequestSchema = z.object({ Id: z.string(), Status: z.enum(CHANGE_REQUEST_STATUSES) });

export const rejectBodySchema = z.object({ Reason: z.string().trim().max(1000).nullish() });

/** `status`: one status or a comma-separated list; default Open (the ones waiting for a decision). */
export const changeRequestListQuerySchema = pageQuerySchema.extend({
  status: z
    .string()
    .max(200)
    .optional()
    .transform((v, ctx) => {
      if (!v) return ['Open'] as ChangeRequestStatus[];
      const wanted = v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean);
      const out = CHANGE_REQUEST_STATUSES.filter((s) => wanted.includes(s.toLowerCase()));
      if (out.length !== new Set(wanted).size) {
        ctx.addIssue({ code: 'custom', message: `Use one or more of ${CHANGE_REQUEST_STATUSES.join(', ')}.` });
        return z.NEVER;
      }
      return out;
    }),
});
export type ChangeRequestListQuery = z.infer<typeof changeRequestListQuerySchema>;

export const requestIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

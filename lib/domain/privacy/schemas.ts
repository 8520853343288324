import { z } from 'zod';

// Wire shapes of a person's privacy rights (spec 3.5, 4.6; CONTRACT.md "Apps, privacy and
// manifests") and of the administrator's permanent erasure (spec 4.7). Pure, so the account page
// builds its forms from the same rules and messages.

export const DELETION_STATUSES = ['None', 'Pending'] as const;

/** GET /api/auth/deletion-status, and the answer of a deletion request or its cancellation. */
export const deletionStatusSchema = z.object({
  Status: z.enum(DELETION_STATUSES),
  RequestedAt: z.date().optional(),
  ExpiresAt: z.date().optional(),
});
export type DeletionStatus = z.infer<typeof deletionStatusSchema>;

/** POST /api/auth/delete-account: the password is asked for (and checked) when the account has one. */
export const deleteAccountBodySchema = z.object({
  Password: z.string({ error: 'Enter your password.' }).max(1024, 'Use at most 1024 characters.').nullish(),
});

/** POST /api/auth/confirm-deletion: the token of the mailed link. */
export const confirmDeletionBodySchema = z.object({
  Token: z
    .string({ error: 'The link is incomplete: open the whole link from the e-mail.' })
    .min(1, 'The link is incomplete: open the whole link from the e-mail.')
    .max(200, 'The link is not valid. Open the whole link from the e-mail.'),
});

export const ERASURE_REASON_MAX = 500;

/** DELETE /api/admin/users/{id}/permanent: why, for the security log (no personal data in it, please). */
export const eraseUserBodySchema = z.object({
  Reason: z
    .string({ error: 'Give the reason for the erasure.' })
    .trim()
    .min(1, 'Give the reason for the erasure.')
    .max(ERASURE_REASON_MAX, `Use at most ${ERASURE_REASON_MAX} characters.`),
});

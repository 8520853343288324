import { z } from 'zod';
import { pageQuerySchema } from '../paging';
import { INVITE_CODE_STATUSES } from './status';

// Wire shapes of the invite-code endpoints (spec 4.7). The answer never carries the code's hash;
// the plaintext code appears only in the answer to the mint call.
const MAX_CODES_PER_MINT = 100;

export const mintInviteCodesSchema = z.object({
  Label: z.string().trim().max(200).nullish(),
  ExpiresAt: z.iso.datetime({ offset: true }).nullish(),
  /** Mint several codes with the same label and expiry; the answer then carries `Codes`. */
  Count: z.number().int().min(1).max(MAX_CODES_PER_MINT).nullish(),
});
export type MintInviteCodesInput = z.infer<typeof mintInviteCodesSchema>;

export const inviteCodeSchema = z.object({
  Id: z.string(),
  AppId: z.string(),
  Label: z.string().nullish(),
  CreatedAt: z.date(),
  CreatedBy: z.string().nullish(),
  ExpiresAt: z.date().nullish(),
  UsedAt: z.date().nullish(),
  UsedByUserId: z.string().nullish(),
  RevokedAt: z.date().nullish(),
  Status: z.enum(INVITE_CODE_STATUSES),
});
export type InviteCodeDto = z.infer<typeof inviteCodeSchema>;

const mintedInviteCodeSchema = inviteCodeSchema.extend({ Code: z.string() });
export const mintInviteCodesResponseSchema = z.union([mintedInviteCodeSchema, z.object({ Codes: z.array(mintedInviteCodeSchema) })]);

export const inviteCodeListQuerySchema = pageQuerySchema.extend({ status: z.enum(INVITE_CODE_STATUSES).optional() });
export type InviteCodeListQuery = z.infer<typeof inviteCodeListQuerySchema>;

export const adminInviteCodeListQuerySchema = inviteCodeListQuerySchema.extend({ appId: z.string().max(64).optional() });
export type AdminInviteCodeListQuery = z.infer<typeof adminInviteCodeListQuerySchema>;

export const appParamsSchema = z.object({ id: z.string().min(1).max(64) });
export const appCodeParamsSchema = z.object({ id: z.string().min(1).max(64), codeId: z.string().min(1).max(64) });

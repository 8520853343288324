import type { inviteCodeSchema, mintInviteCodesResponseSchema } from '@/lib/domain/invite-codes/schemas';
import type { WireOf } from '@/lib/http/wire';

// Wire shapes of the invite-code endpoints (spec 4.7 "Invite codes") as the console reads them.
export type InviteCode = WireOf<typeof inviteCodeSchema>;
export type MintAnswer = WireOf<typeof mintInviteCodesResponseSchema>;
export type MintedCode = InviteCode & { Code: string };

export const inviteKeys = {
  all: ['invite-codes'] as const,
  list: (q: object) => ['invite-codes', 'list', q] as const,
};

/** The codes of a mint answer: one code, or `Codes` when several were asked for. */
export function mintedCodes(answer: MintAnswer): MintedCode[] {
  return 'Codes' in answer ? answer.Codes : [answer];
}

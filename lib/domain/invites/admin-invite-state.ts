import { sha256Hex } from '../../crypto/tokens';
import { realmDb, type DomainContext } from '../../realm/context';

// What the bootstrap page tells the holder of an invite link before asking for a password (spec
// 3.3): a used link says so at once instead of after a password was chosen. Only the token's holder
// learns its state; the token (256 random bits) is found by its SHA-256 like at redemption, and
// nothing is changed. The redemption (redeem-admin-invite.ts) checks everything again.

export type AdminInviteState = 'open' | 'used' | 'invalid';

type InviteFacts = { usedAt: Date | null; revokedAt: Date | null; expiresAt: Date };

/** The state of an invite row, as redemption judges it: used before invalid (400 BootstrapInvite.TokenUsed). */
export function inviteStateOf(invite: InviteFacts | null, now = Date.now()): AdminInviteState {
  if (!invite) return 'invalid';
  if (invite.usedAt) return 'used';
  if (invite.revokedAt || invite.expiresAt.getTime() <= now) return 'invalid';
  return 'open';
}

export async function adminInviteState(ctx: DomainContext, token: string): Promise<AdminInviteState> {
  if (!token || token.length > 200) return 'invalid';
  const db = await realmDb(ctx.realm);
  const invite = await db.pendingAdminInvite.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: { usedAt: true, revokedAt: true, expiresAt: true },
  });
  return inviteStateOf(invite);
}

import { publicOrigin } from '../../config/env';
import { newId, randomToken, sha256Hex } from '../../crypto/tokens';
import type { RealmTx } from '../../db/types';
import type { RealmRecord } from '../../realm/realm-record';
import type { AdminInviteDto, InitialAdminInput } from './schemas';

// The single-use 24-hour first-administrator invite (spec 2.2, 3.3, 5.8). Issuing one revokes every
// prior open invite of the realm, so at most one link is active. Only the token's SHA-256 is stored;
// the link is returned once.
const ADMIN_INVITE_TTL_MS = 24 * 3600 * 1000;

function bootstrapUrl(realm: Pick<RealmRecord, 'primaryDomain'>, token: string): string {
  return `${publicOrigin(realm.primaryDomain)}/bootstrap?token=${encodeURIComponent(token)}`;
}

export async function issueAdminInviteTx(
  tx: RealmTx,
  realm: Pick<RealmRecord, 'primaryDomain'>,
  input: InitialAdminInput,
): Promise<AdminInviteDto & { id: string }> {
  const now = new Date();
  await tx.pendingAdminInvite.updateMany({ where: { usedAt: null, revokedAt: null }, data: { revokedAt: now } });
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + ADMIN_INVITE_TTL_MS);
  const invite = await tx.pendingAdminInvite.create({
    data: {
      id: newId(),
      tokenHash: sha256Hex(token),
      userName: input.UserName,
      email: input.Email.toLowerCase(),
      firstname: input.Firstname ?? null,
      lastname: input.Lastname ?? null,
      expiresAt,
      createdAt: now,
    },
  });
  return { id: invite.id, UserName: invite.userName, Email: invite.email, ExpiresAt: expiresAt, MagicLinkUrl: bootstrapUrl(realm, token) };
}

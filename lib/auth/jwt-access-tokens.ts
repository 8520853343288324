import type { JWTPayload } from 'jose';
import { oidcStorageKey } from '../db/oidc-payload-key';
import { sha256Hex } from '../crypto/tokens';
import { deleteInBatches, type BatchLimits } from '../db/batched-delete';
import type { RealmDb } from '../db/types';

// JWT access tokens are self-contained, so the engine keeps no record of them (issue 8 item 15).
// Two facts make one stop before its expiry, checked by introspection and by Gatehouse's own bearer
// check alike, from the realm's database (so every instance, on either engine, agrees):
// - its grant is gone (the person ended the client session, a refresh token was reused or revoked,
//   the client was deactivated): the token names its grant by the grant's storage key, the id of the
//   Grant row, which reveals nothing the engine could use;
// - it was revoked itself at /connect/revocation (RFC 7009): the SHA-256 of its jti is kept in
//   RevokedAccessToken until the token would have expired anyway.

/** The claim naming the token's grant (the Grant row's storage key). */
export const GRANT_CLAIM = 'urn:gatehouse:grant';

export function grantClaimValue(grantId: string): string {
  return oidcStorageKey(grantId);
}

/** Whether a JWT access token whose signature, issuer and expiry already verified is still live. */
export async function jwtStillLive(db: RealmDb, payload: JWTPayload): Promise<boolean> {
  if (typeof payload.jti === 'string') {
    const revoked = await db.revokedAccessToken.findUnique({ where: { jtiHash: sha256Hex(payload.jti) }, select: { jtiHash: true } });
    if (revoked) return false;
  }
  const grant = payload[GRANT_CLAIM];
  if (typeof grant === 'string') {
    const row = await db.oidcPayload.findUnique({ where: { model_id: { model: 'Grant', id: grant } }, select: { expiresAt: true } });
    if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return false;
  }
  return true;
}

/**
 * Revokes a verified JWT access token (RFC 7009): its jti is remembered until it expires, and its
 * grant ends with it, as revoking an opaque access token ends the rest of its grant in the engine.
 */
export async function revokeJwt(db: RealmDb, payload: JWTPayload): Promise<void> {
  const now = new Date();
  const expiresAt = typeof payload.exp === 'number' ? new Date(payload.exp * 1000) : new Date(now.getTime() + 24 * 3600_000);
  const grant = payload[GRANT_CLAIM];
  await db.$transaction(async (tx) => {
    if (typeof payload.jti === 'string') {
      const jtiHash = sha256Hex(payload.jti);
      await tx.revokedAccessToken.upsert({ where: { jtiHash }, create: { jtiHash, expiresAt }, update: {} });
    }
    if (typeof grant === 'string') await tx.oidcPayload.deleteMany({ where: { OR: [{ grantId: grant }, { model: 'Grant', id: grant }] } });
  });
}

/** Deletes the records of revoked tokens that have expired since (of no use any more); the purge job calls it. */
export async function purgeExpiredRevocations(db: RealmDb, now: Date, limits: BatchLimits, stopped?: () => boolean): Promise<number> {
  const expired = { expiresAt: { lt: now } };
  return deleteInBatches(
    limits,
    async (take) => (await db.revokedAccessToken.findMany({ where: expired, select: { jtiHash: true }, take })).map((r) => r.jtiHash),
    async (hashes) => (await db.revokedAccessToken.deleteMany({ where: { ...expired, jtiHash: { in: hashes } } })).count,
    stopped,
  );
}

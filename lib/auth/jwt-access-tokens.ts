import type { JWTPayload } from 'jose';
import { oidcStorageKey } from '../db/oidc-payload-key';
import { sha256Hex } from '../crypto/tokens';
import { deleteInBatches, type BatchLimits } from '../db/batched-delete';
import type { RealmDb } from '../db/types';
import { driverOf, sqliteStatement } from '../db/driver-handle';
import { runWhenFree } from '../db/sqlite-transaction-gate';
import { booleanValue, dateValue, epochMillisOf } from '../db/sql-values';

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

// The two facts in one prepared statement on the realm's driver (lib/db/oidc-payload-sql.ts says
// why), where Prisma made two queries through its interpreter on every JWT a resource server or
// Gatehouse's API checks. The grant's expiry is compared in JavaScript, as Prisma's answer was.
const REVOKED = 'EXISTS(SELECT 1 FROM "RevokedAccessToken" WHERE "jtiHash" = $1) AS "revoked"';
const GRANT_EXISTS = 'EXISTS(SELECT 1 FROM "OidcPayload" WHERE "model" = \'Grant\' AND "id" = $2) AS "grantExists"';
const grantExpiry = (column: string) => `(SELECT ${column} FROM "OidcPayload" WHERE "model" = 'Grant' AND "id" = $2) AS "grantExpiresAt"`;
// SQLite: the grant's id is bound twice (plain `?` parameters, in order).
const SQLITE_LIVENESS = `SELECT ${REVOKED}, ${GRANT_EXISTS}, ${grantExpiry('"expiresAt"')}`.replace(/\$\d/g, '?');
const PG_LIVENESS = {
  name: 'gh-jwt-liveness',
  text: `SELECT ${REVOKED}, ${GRANT_EXISTS}, ${grantExpiry(epochMillisOf('expiresAt'))}`,
};

type LivenessRow = { revoked: unknown; grantExists: unknown; grantExpiresAt: unknown };

async function livenessFacts(
  db: RealmDb,
  jtiHash: string | null,
  grant: string | null,
): Promise<{ revoked: boolean; grant: { expiresAt: Date | null } | null }> {
  const driver = driverOf(db);
  let row: LivenessRow | undefined;
  if (driver?.kind === 'sqlite')
    row = await runWhenFree(driver.db, () => sqliteStatement(driver.db, SQLITE_LIVENESS).get(jtiHash, grant, grant) as LivenessRow | undefined);
  else if (driver?.kind === 'postgresql') row = (await driver.pool.query<LivenessRow>({ ...PG_LIVENESS, values: [jtiHash, grant] })).rows[0];
  if (row) return { revoked: booleanValue(row.revoked), grant: booleanValue(row.grantExists) ? { expiresAt: dateValue(row.grantExpiresAt) } : null };
  const [revoked, grantRow] = await Promise.all([
    jtiHash ? db.revokedAccessToken.findUnique({ where: { jtiHash }, select: { jtiHash: true } }) : null,
    grant ? db.oidcPayload.findUnique({ where: { model_id: { model: 'Grant', id: grant } }, select: { expiresAt: true } }) : null,
  ]);
  return { revoked: revoked !== null, grant: grantRow };
}

/** Whether a JWT access token whose signature, issuer and expiry already verified is still live. */
export async function jwtStillLive(db: RealmDb, payload: JWTPayload): Promise<boolean> {
  const jtiHash = typeof payload.jti === 'string' ? sha256Hex(payload.jti) : null;
  const claim = payload[GRANT_CLAIM];
  const grant = typeof claim === 'string' ? claim : null;
  if (jtiHash === null && grant === null) return true;
  const facts = await livenessFacts(db, jtiHash, grant);
  if (facts.revoked) return false;
  if (grant !== null && (!facts.grant || (facts.grant.expiresAt && facts.grant.expiresAt.getTime() <= Date.now()))) return false;
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

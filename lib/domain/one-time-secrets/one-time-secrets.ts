import { randomInt } from 'node:crypto';
import { newId, randomToken, safeEqual, sha256Hex } from '../../crypto/tokens';
import { deleteInBatches, type BatchLimits } from '../../db/batched-delete';
import type { RealmDb, RealmTx } from '../../db/types';
import { secretPurposes, type SecretPurpose } from './purposes';

// Issuing and redeeming one-time secrets. Tokens (256 bits) are found by their SHA-256; codes
// (6 digits) are found by their subject and compared in constant time against SHA-256(id:code), and
// each wrong code counts against the secret's attempts. Redeeming is a conditional update, so a
// secret is used at most once even under concurrent requests.

type Db = RealmDb | RealmTx;

export type IssueInput = {
  purpose: SecretPurpose;
  userId?: string | null;
  email?: string | null;
  data?: unknown;
  /** Revoke earlier unused secrets of the same purpose and subject (one live link at a time). */
  replacePrevious?: boolean;
  ttlMinutes?: number;
  /**
   * A token the caller already has (at least 128 random bits, made by someone we trust to make it
   * random: the SAML library's request id), stored by its hash like ours. Tokens only.
   */
  knownToken?: string;
};

export type OneTimeRecord = { id: string; userId: string | null; email: string | null; data: unknown; createdAt: Date };

export type RedeemFailure = 'invalid' | 'expired' | 'used' | 'too-many-attempts';
export type RedeemResult = { ok: true; record: OneTimeRecord } | { ok: false; reason: RedeemFailure };

function codeHash(id: string, code: string): string {
  return sha256Hex(`${id}:${code}`);
}

export async function issueSecret(db: Db, input: IssueInput): Promise<{ id: string; secret: string; expiresAt: Date }> {
  const spec = secretPurposes[input.purpose];
  const now = new Date();
  const expiresAt = new Date(now.getTime() + (input.ttlMinutes ?? spec.ttlMinutes) * 60_000);
  const email = input.email?.toLowerCase() ?? null;
  if (input.replacePrevious) {
    await db.oneTimeSecret.updateMany({
      where: { purpose: input.purpose, usedAt: null, ...(input.userId ? { userId: input.userId } : { email }) },
      data: { usedAt: now },
    });
  }
  const id = newId();
  if (input.knownToken !== undefined && (spec.kind !== 'token' || input.knownToken.length < 22)) throw new Error('knownToken: tokens of 128 bits or more only');
  const secret = spec.kind === 'code' ? String(randomInt(0, 1_000_000)).padStart(6, '0') : (input.knownToken ?? randomToken());
  await db.oneTimeSecret.create({
    data: {
      id,
      purpose: input.purpose,
      userId: input.userId ?? null,
      email,
      secretHash: spec.kind === 'code' ? codeHash(id, secret) : sha256Hex(secret),
      expiresAt,
      data: input.data === undefined ? null : JSON.stringify(input.data),
      createdAt: now,
    },
  });
  return { id, secret, expiresAt };
}

function toRecord(row: { id: string; userId: string | null; email: string | null; data: string | null; createdAt: Date }): OneTimeRecord {
  return { id: row.id, userId: row.userId, email: row.email, data: row.data ? (JSON.parse(row.data) as unknown) : undefined, createdAt: row.createdAt };
}

async function markUsed(db: Db, id: string): Promise<boolean> {
  const r = await db.oneTimeSecret.updateMany({ where: { id, usedAt: null }, data: { usedAt: new Date() } });
  return r.count === 1;
}

/** Redeems a link token of `purpose`. */
export async function redeemToken(db: Db, purpose: SecretPurpose, token: string, options: { consume?: boolean } = {}): Promise<RedeemResult> {
  if (!token || token.length > 200) return { ok: false, reason: 'invalid' };
  const row = await db.oneTimeSecret.findFirst({ where: { secretHash: sha256Hex(token), purpose } });
  if (!row) return { ok: false, reason: 'invalid' };
  if (row.usedAt) return { ok: false, reason: 'used' };
  if (row.expiresAt.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
  if (options.consume !== false && !(await markUsed(db, row.id))) return { ok: false, reason: 'used' };
  return { ok: true, record: toRecord(row) };
}

/** Checks a 6-digit code sent to a subject (a user id or a mailbox); a wrong code costs an attempt. */
export async function redeemCode(db: Db, purpose: SecretPurpose, subject: { userId?: string; email?: string }, code: string): Promise<RedeemResult> {
  const where = { purpose, usedAt: null, ...(subject.userId ? { userId: subject.userId } : { email: subject.email?.toLowerCase() ?? '' }) };
  const row = await db.oneTimeSecret.findFirst({ where, orderBy: { createdAt: 'desc' } });
  if (!row) return { ok: false, reason: 'invalid' };
  if (row.expiresAt.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
  if (row.attempts >= secretPurposes[purpose].maxAttempts) return { ok: false, reason: 'too-many-attempts' };
  const normalized = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(normalized) || !safeEqual(codeHash(row.id, normalized), row.secretHash)) {
    await db.oneTimeSecret.update({ where: { id: row.id }, data: { attempts: { increment: 1 } } });
    return { ok: false, reason: row.attempts + 1 >= secretPurposes[purpose].maxAttempts ? 'too-many-attempts' : 'invalid' };
  }
  if (!(await markUsed(db, row.id))) return { ok: false, reason: 'used' };
  return { ok: true, record: toRecord(row) };
}

/** Deletes expired secrets (kept a day past expiry for the audit trail of failures); the purge job calls it. */
export async function purgeExpiredSecrets(db: RealmDb, now: Date, limits: BatchLimits, stopped?: () => boolean): Promise<number> {
  const expired = { expiresAt: { lt: new Date(now.getTime() - 24 * 3600_000) } };
  return deleteInBatches(
    limits,
    async (take) => (await db.oneTimeSecret.findMany({ where: expired, select: { id: true }, take })).map((r) => r.id),
    async (ids) => (await db.oneTimeSecret.deleteMany({ where: { ...expired, id: { in: ids } } })).count,
    stopped,
  );
}

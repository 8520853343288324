import { generateKeyPair, type JsonWebKey } from 'node:crypto';
import { promisify } from 'node:util';
import { newId } from '../../crypto/tokens';
import { open, seal } from '../../crypto/secret-box';
import type { RealmDb } from '../../db/types';

// A realm's token-signing keys (issue 4.1). Two algorithms: RS256, which every OpenID relying party
// must accept and is the default for ID tokens, and ES256, which signs JWT access tokens at several
// times the rate of RSA. Private halves are sealed with the platform key. Rotation adds new keys and
// retires the old ones, which stay published in the JWKS until their tokens have surely expired.
const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];

/** How long a key signs before it is rotated automatically. */
const KEY_ROTATION_AGE_MS = 90 * 24 * 3600 * 1000;
/** How long a retired key stays published: longer than any token it signed lives. */
const RETIRED_KEY_OVERLAP_MS = 30 * 24 * 3600 * 1000;

export type PrivateJwk = JsonWebKey & { kid: string; alg: SigningAlg; use: 'sig' };

const generate = promisify(generateKeyPair);

async function newPrivateJwk(alg: SigningAlg): Promise<PrivateJwk> {
  // Off the event loop: RSA generation takes tens of milliseconds.
  const { privateKey } = alg === 'RS256' ? await generate('rsa', { modulusLength: 2048 }) : await generate('ec', { namedCurve: 'P-256' });
  return { ...privateKey.export({ format: 'jwk' }), kid: newId(), alg, use: 'sig' };
}

/** New keys for every algorithm, ready to insert (realm creation and rotation). */
export async function newSigningKeyRows(): Promise<{ id: string; alg: SigningAlg; privateJwk: string }[]> {
  return Promise.all(
    SIGNING_ALGS.map(async (alg) => {
      const jwk = await newPrivateJwk(alg);
      return { id: jwk.kid, alg, privateJwk: await seal(JSON.stringify(jwk)) };
    }),
  );
}

/**
 * The keys the engine signs and publishes with: active keys first (newest first per algorithm, so
 * the engine signs with them), then retired ones still inside their overlap. Creates keys for a
 * realm that has none (one created before issue 4) and rotates keys past their age.
 */
export async function loadSigningKeys(db: RealmDb, now = new Date()): Promise<PrivateJwk[]> {
  let rows = await db.signingKey.findMany({ where: { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }, orderBy: { createdAt: 'desc' } });
  const active = rows.filter((r) => !r.retiredAt);
  const stale = SIGNING_ALGS.some((alg) => {
    const newest = active.find((r) => r.alg === alg);
    return !newest || now.getTime() - newest.createdAt.getTime() > KEY_ROTATION_AGE_MS;
  });
  if (stale) {
    await rotateSigningKeys(db, now);
    rows = await db.signingKey.findMany({ where: { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }, orderBy: { createdAt: 'desc' } });
  }
  const ordered = [...rows.filter((r) => !r.retiredAt), ...rows.filter((r) => r.retiredAt)];
  return Promise.all(ordered.map(async (r) => JSON.parse(await open(r.privateJwk)) as PrivateJwk));
}

export type RotatedKeys = {
  added: { id: string; alg: SigningAlg }[];
  retired: string[];
  /** Until when the retired keys stay published. */
  retiredUntil: Date;
};

/** Retires the active keys (kept published for the overlap) and makes new ones, in one transaction. */
export async function rotateSigningKeys(db: RealmDb, now = new Date()): Promise<RotatedKeys> {
  const rows = await newSigningKeyRows();
  const retiredUntil = new Date(now.getTime() + RETIRED_KEY_OVERLAP_MS);
  const retired = await db.$transaction(async (tx) => {
    const active = await tx.signingKey.findMany({ where: { retiredAt: null }, select: { id: true } });
    await tx.signingKey.updateMany({ where: { retiredAt: null }, data: { retiredAt: now, expiresAt: retiredUntil } });
    await tx.signingKey.createMany({ data: rows });
    return active.map((r) => r.id);
  });
  return { added: rows.map((r) => ({ id: r.id, alg: r.alg })), retired, retiredUntil };
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const;

/** The published (public) halves of every key still inside its validity, for verifying tokens. */
export async function publicSigningKeys(db: RealmDb, now = new Date()): Promise<JsonWebKey[]> {
  const rows = await db.signingKey.findMany({ where: { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } });
  return Promise.all(
    rows.map(async (r) => {
      const jwk = JSON.parse(await open(r.privateJwk)) as PrivateJwk;
      for (const member of PRIVATE_MEMBERS) delete jwk[member];
      return jwk;
    }),
  );
}

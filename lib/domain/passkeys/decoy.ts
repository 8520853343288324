import { createHmac, randomBytes } from 'node:crypto';
import { getGlobalDb } from '../../db/global-db';
import { isUniqueViolation } from '../../db/errors';
import { shared } from '../../runtime/shared';

// Anti-enumeration for POST /api/account/passkey/login-options with a UserName: a name with no
// passkeys (unknown, or a user who has none) is answered with one decoy credential id instead of
// an empty list, so "this user exists and has passkeys" cannot be told from "no such user". The
// decoy is an HMAC of the realm and the name under a key kept in the global store (shared by every
// instance), so the same name always gets the same decoy and nobody outside can compute it.
const KEY_ID = 'passkey-decoy-key-v1';

async function loadKey(): Promise<Buffer> {
  const db = await getGlobalDb();
  const existing = await db.platformSecret.findUnique({ where: { id: KEY_ID } });
  if (existing) return Buffer.from(existing.value, 'base64');
  try {
    await db.platformSecret.create({ data: { id: KEY_ID, value: randomBytes(32).toString('base64') } });
  } catch (e) {
    if (!isUniqueViolation(e)) throw e; // another instance made it first
  }
  return Buffer.from((await db.platformSecret.findUniqueOrThrow({ where: { id: KEY_ID } })).value, 'base64');
}

function key(): Promise<Buffer> {
  const s = shared<{ key?: Promise<Buffer> }>('passkeys.decoy-key', () => ({}));
  if (!s.key) {
    s.key = loadKey();
    s.key.catch(() => {
      s.key = undefined;
    });
  }
  return s.key;
}

/** A credential id for a name without passkeys: 32 bytes (base64url), the most common length. */
export async function decoyCredentialId(realmId: string, name: string): Promise<string> {
  return createHmac('sha256', await key()).update(`${realmId}\n${name.trim().toLowerCase()}`).digest().toString('base64url');
}

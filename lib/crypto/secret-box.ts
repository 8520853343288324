import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { getGlobalDb } from '../db/global-db';
import { isUniqueViolation } from '../db/errors';
import { shared } from '../runtime/shared';

// Encryption at rest for secrets Gatehouse must read back (TOTP keys, upstream client secrets):
// AES-256-GCM with a random 96-bit nonce; the value records its key version. The key comes from
// GATEHOUSE_SECRET_KEY (32 bytes, base64) or, when unset, from a random key kept in the global
// store so every instance shares it (set the variable to keep it out of the databases).
const VERSION = 'v1';
const STORED_KEY_ID = 'encryption-key-v1';

async function loadKey(): Promise<Buffer> {
  const configured = process.env.GATEHOUSE_SECRET_KEY;
  if (configured) {
    const key = Buffer.from(configured, 'base64');
    if (key.length !== 32) throw new Error('Invalid configuration: GATEHOUSE_SECRET_KEY must be 32 bytes, base64-encoded');
    return key;
  }
  const db = await getGlobalDb();
  const existing = await db.platformSecret.findUnique({ where: { id: STORED_KEY_ID } });
  if (existing) return Buffer.from(existing.value, 'base64');
  try {
    await db.platformSecret.create({ data: { id: STORED_KEY_ID, value: randomBytes(32).toString('base64') } });
  } catch (e) {
    if (!isUniqueViolation(e)) throw e; // another instance created it first
  }
  const row = await db.platformSecret.findUniqueOrThrow({ where: { id: STORED_KEY_ID } });
  return Buffer.from(row.value, 'base64');
}

function key(): Promise<Buffer> {
  const s = shared<{ key?: Promise<Buffer> }>('crypto.secret-box', () => ({}));
  if (!s.key) {
    s.key = loadKey();
    s.key.catch(() => {
      s.key = undefined;
    });
  }
  return s.key;
}

export async function seal(plaintext: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await key(), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
}

export async function open(sealed: string): Promise<string> {
  const [version, ivText, bodyText] = sealed.split('.');
  if (version !== VERSION || !ivText || !bodyText) throw new Error('unrecognised sealed value');
  const body = Buffer.from(bodyText, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', await key(), Buffer.from(ivText, 'base64url'));
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
}

/** A 256-bit key for one purpose, derived from the platform key (HMAC-SHA256), e.g. cookie signing. */
export async function derivedKey(purpose: string): Promise<Buffer> {
  return createHmac('sha256', await key()).update(purpose, 'utf8').digest();
}

import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { settings } from '../config/env';
import { getGlobalDb } from '../db/global-db';
import { unlessAlreadyInserted } from '../db/errors';
import { sharedPromise } from '../runtime/cached-promise';

// Encryption at rest for secrets Gatehouse must read back (TOTP keys, signing keys, upstream client
// secrets): AES-256-GCM with a random 96-bit nonce; the value records its key version. The key comes
// from outside the data: GATEHOUSE_SECRET_KEY, GATEHOUSE_SECRET_KEY_FILE, or ./gatehouse.key
// (config/env.ts), required in production. Only a development server starting on an empty store
// without one generates a random key into the global store; the CLI never does, and nothing
// generates one where sealed data may already exist (docs/security.md "The platform key").
const VERSION = 'v1';
const STORED_KEY_ID = 'encryption-key-v1';

const WHERE_THE_KEY_GOES =
  'GATEHOUSE_SECRET_KEY (32 random bytes, base64: openssl rand -base64 32), GATEHOUSE_SECRET_KEY_FILE (a file holding it), or a file gatehouse.key (mode 0600) in the working directory';

const MISSING_KEY_MESSAGE = `${WHERE_THE_KEY_GOES} must hold the key in production, so the key that encrypts secrets at rest is not kept beside the data it protects`;

async function storedKey(): Promise<Buffer | undefined> {
  const row = await (await getGlobalDb()).platformSecret.findUnique({ where: { id: STORED_KEY_ID } });
  return row ? Buffer.from(row.value, 'base64') : undefined;
}

/** The key kept in the global store by an earlier version or a development setup, base64; undefined when none is. */
export async function exportStoredKey(): Promise<string | undefined> {
  return (await storedKey())?.toString('base64');
}

/** Whether the global store holds anything at all: a realm (whose database holds sealed keys) or a platform secret. */
async function storeHoldsData(): Promise<boolean> {
  const db = await getGlobalDb();
  return (await db.realm.findFirst({ select: { id: true } })) !== null || (await db.platformSecret.findFirst({ select: { id: true } })) !== null;
}

/** The configured key, else the stored one (development); never a new one: that is made at start-up only. */
async function loadKey(): Promise<Buffer> {
  const s = settings();
  if (s.secretKey) return s.secretKey;
  if (s.production) throw new Error(`Invalid configuration: ${MISSING_KEY_MESSAGE}`);
  const existing = await storedKey();
  if (existing) return existing;
  throw new Error(`Invalid configuration: no encryption key is configured; set ${WHERE_THE_KEY_GOES}`);
}

/**
 * The CLI's refusal before it opens a store: no key anywhere and no SQLite store where it looks (run
 * from another directory, or with another GATEHOUSE_DATA_DIR, than the server). Opening would
 * create an empty store there only to refuse the next moment; this says where it looked instead.
 */
export function noKeyAndNoStoreError(storePath: string): Error {
  return new Error(
    `Invalid configuration: no encryption key is configured, and there is no store at ${storePath}. Run in the server's working directory with its environment, or set ${WHERE_THE_KEY_GOES}. Nothing was created.`,
  );
}

/**
 * Start-up check of the key (server and CLI). Production without a configured key refuses to start,
 * telling a deployment whose key is still in the global store how to take it out. A configured key
 * that equals the stored one replaces it: the stored copy is deleted. A different one would leave
 * every sealed secret unreadable, so that refuses to start too.
 *
 * Without a configured or stored key, a key is generated (and kept in the global store) only when
 * `mayCreateKey` (the development server) and the store is empty. The CLI, or a server meeting data
 * sealed with a key it cannot find, refuses and writes nothing: a key made there would differ from
 * the deployment's own, and the production server would then refuse to start (issue 30 item 3).
 */
export async function checkPlatformKey(options: { mayCreateKey: boolean }): Promise<{ removedStoredCopy: boolean }> {
  const s = settings();
  const stored = await storedKey();
  if (!s.secretKey) {
    if (s.production) {
      const migrate = stored
        ? ' This deployment still keeps its key in the global store: run `npx gatehouse keys export-secret` (same environment, NODE_ENV too) and set GATEHOUSE_SECRET_KEY to the value it prints, or write it to a file (mode 0600) named by GATEHOUSE_SECRET_KEY_FILE; on the next start Gatehouse removes the stored copy.'
        : '';
      throw new Error(`Invalid configuration: ${MISSING_KEY_MESSAGE}.${migrate}`);
    }
    if (stored) return { removedStoredCopy: false };
    if (await storeHoldsData()) {
      throw new Error(
        `Invalid configuration: no encryption key is configured, and this store (${s.databaseUrl ? 'DATABASE_URL' : s.dataDir}) holds data sealed with one. Run with the server's environment and working directory, or set ${WHERE_THE_KEY_GOES}. Nothing was changed.`,
      );
    }
    if (!options.mayCreateKey) {
      throw new Error(
        `Invalid configuration: no encryption key is configured. Set ${WHERE_THE_KEY_GOES} (the README's install line creates gatehouse.key), or start the development server once. Nothing was changed.`,
      );
    }
    const db = await getGlobalDb();
    await unlessAlreadyInserted(() => db.platformSecret.create({ data: { id: STORED_KEY_ID, value: randomBytes(32).toString('base64') } }));
    return { removedStoredCopy: false };
  }
  if (!stored) return { removedStoredCopy: false };
  if (!timingSafeEqual(stored, s.secretKey)) {
    throw new Error(
      `Invalid configuration: the global store keeps an encryption key that differs from ${s.secretKeySource}; secrets sealed with it (TOTP keys, signing keys) would become unreadable. Set GATEHOUSE_SECRET_KEY to the value \`npx gatehouse keys export-secret\` prints (run it without the variable set).`,
    );
  }
  await (await getGlobalDb()).platformSecret.deleteMany({ where: { id: STORED_KEY_ID } });
  return { removedStoredCopy: true };
}

function key(): Promise<Buffer> {
  return sharedPromise('crypto.secret-box', loadKey);
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
  return createHmac('sha256', await key())
    .update(purpose, 'utf8')
    .digest();
}

import { open, seal } from '../../crypto/secret-box';
import type { RealmTx } from '../../db/types';

// The one module that reads or writes a login provider's sealed secret (the OIDC client secret, the
// LDAP bind password, the Kerberos keytab, the SAML SP private key). Sealed with AES-256-GCM
// (lib/crypto/secret-box.ts); never answered, never logged.

export async function storeProviderSecret(db: RealmTx, id: string, secret: string): Promise<void> {
  await db.loginProvider.update({ where: { id }, data: { secretEncrypted: await seal(secret), version: { increment: 1 }, updatedAt: new Date() } });
}

/** The provider's secret in clear, or undefined when none was set. */
export async function readProviderSecret(db: RealmTx, id: string): Promise<string | undefined> {
  const row = await db.loginProvider.findUnique({ where: { id }, select: { secretEncrypted: true } });
  return row?.secretEncrypted ? open(row.secretEncrypted) : undefined;
}

/** The sealed form, for a create that writes the row and its secret in one statement. */
export function sealProviderSecret(secret: string): Promise<string> {
  return seal(secret);
}

/** The ids among `ids` of providers that have a secret (the answer says HasSecret, never the secret). */
export async function providersWithSecret(db: RealmTx, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db.loginProvider.findMany({ where: { id: { in: [...ids] }, NOT: { secretEncrypted: null } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

/**
 * Stores a secret generated on first use (the SAML SP key pair) unless another request stored one
 * first: true when this one was stored. Both instances then read back the same key pair.
 */
export async function storeGeneratedSecret(db: RealmTx, id: string, secret: string): Promise<boolean> {
  const r = await db.loginProvider.updateMany({ where: { id, secretEncrypted: null }, data: { secretEncrypted: await seal(secret) } });
  return r.count === 1;
}

import type { RealmTx } from '../../db/types';
import { validationError } from '../../errors/app-error';

// Checks shared by creating and changing a credential.

/** Scopes name OAuthScope rows (spec 4.7 "OAuth scopes"); a 400 names each unknown one. */
export async function assertScopesExist(tx: RealmTx, names: readonly string[]): Promise<void> {
  if (!names.length) return;
  const found = new Set((await tx.oAuthScope.findMany({ where: { name: { in: [...names] } }, select: { name: true } })).map((s) => s.name));
  const unknown = names.filter((n) => !found.has(n));
  if (unknown.length) throw validationError({ Scopes: unknown.map((n) => `No scope is named ${n}.`) }, `Unknown scopes: ${unknown.join(', ')}.`);
}

/** An expiry must lie ahead: a credential born expired could never be used. */
export function futureExpiry(value: string): Date {
  const at = new Date(value);
  if (at.getTime() <= Date.now()) throw validationError({ ExpiresAt: ['Choose an expiry date in the future.'] });
  return at;
}

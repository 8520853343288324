import { domainContext } from '../realm/context';
import { rotateRealmSigningKeys } from '../domain/signing-keys/rotate-realm-signing-keys';
import { getControlPlaneRealm, getRealmRecordBySlug } from '../realm/realm-store';

// `gatehouse keys rotate [--realm SLUG]`: rotates a realm's token-signing keys (default: the control
// plane) and prints one line per new key, `new <kid> <alg>`, then one per retired key, which stays
// published until the date shown. Safe beside running servers: they rebuild the realm's engine at
// once through the Redis relay, or within a minute without Redis (rotate-realm-signing-keys.ts).
export async function rotateKeys(options: Record<string, string | true>, out: (line: string) => void): Promise<void> {
  if (options.realm === true) throw new Error('--realm needs a value');
  const realm = options.realm !== undefined ? await getRealmRecordBySlug(options.realm) : await getControlPlaneRealm();
  if (!realm) throw new Error(options.realm !== undefined ? `no realm with slug ${options.realm}` : 'no control-plane realm');
  const ctx = domainContext(realm, { kind: 'system', reason: 'cli keys rotate' });
  const rotated = await rotateRealmSigningKeys(ctx);
  for (const key of rotated.added) out(`new ${key.id} ${key.alg}`);
  for (const kid of rotated.retired) out(`retired ${kid} published until ${rotated.retiredUntil.toISOString()}`);
  out(`signing keys of realm ${realm.slug} rotated`);
}

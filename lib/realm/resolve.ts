import { getGlobalDb } from '../db/global-db';
import { normalizeHost } from './host';
import { realmCache } from './realm-cache';
import { realmInclude, toRealmRecord, type RealmRecord } from './realm-record';

// Realm resolution from the Host header (spec 1, CONTRACT.md "Wire rules").

export type Resolution = { kind: 'realm'; realm: RealmRecord } | { kind: 'unknown' } | { kind: 'invalid-host' };

/** Looks up the active, provisioned realm that owns `host` (already normalised), through the cache. */
async function findRealmByHost(host: string): Promise<RealmRecord | null> {
  const cache = realmCache();
  const hit = cache.byHost.get(host);
  if (hit) return hit;
  if (cache.unknownHosts.has(host)) return null;
  const generation = cache.generation;
  const db = await getGlobalDb();
  const domain = await db.realmDomain.findUnique({ where: { host }, include: { realm: { include: realmInclude } } });
  const realm = domain && domain.realm.isActive && domain.realm.isProvisioned ? toRealmRecord(domain.realm) : null;
  // A realm change during the lookup invalidated the cache: do not store what may be stale.
  if (generation === cache.generation) {
    if (realm) cache.byHost.set(host, realm);
    else cache.unknownHosts.set(host, true);
  }
  return realm;
}

/** Resolves a raw Host header value. */
export async function resolveHost(hostHeader: string | undefined | null): Promise<Resolution> {
  const host = normalizeHost(hostHeader);
  if (!host) return { kind: 'invalid-host' };
  const realm = await findRealmByHost(host);
  return realm ? { kind: 'realm', realm } : { kind: 'unknown' };
}

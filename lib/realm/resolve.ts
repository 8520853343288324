import { getGlobalDb } from '../db/global-db';
import { normalizeHost } from './host';
import { realmCache } from './realm-cache';
import { realmInclude, toRealmRecord, type RealmRecord } from './realm-record';

// Realm resolution from the Host header (spec 1, CONTRACT.md "Wire rules"). A host is a realm's
// domain (RealmDomain) or the address of one of its Apps (RealmAppDomain, spec 2.1
// ApplicationDomains: `<subdomain>.<PrimaryDomain>`); either selects the realm, and the realm record
// carries the App routing map, so the App of a request costs no further query.

export type Resolution = { kind: 'realm'; realm: RealmRecord } | { kind: 'unknown' } | { kind: 'invalid-host' };

/** Looks up the active, provisioned realm that owns `host` (already normalised), through the cache. */
async function findRealmByHost(host: string): Promise<RealmRecord | null> {
  const cache = realmCache();
  const hit = cache.byHost.get(host);
  if (hit) return hit;
  if (cache.unknownHosts.has(host)) return null;
  const generation = cache.generation;
  const db = await getGlobalDb();
  const include = { realm: { include: realmInclude } } as const;
  // Cached either way: the second lookup runs only on a miss for a host that is no realm's domain.
  const row =
    (await db.realmDomain.findUnique({ where: { host }, include }))?.realm ?? (await db.realmAppDomain.findUnique({ where: { host }, include }))?.realm;
  const realm = row && row.isActive && row.isProvisioned ? toRealmRecord(row) : null;
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

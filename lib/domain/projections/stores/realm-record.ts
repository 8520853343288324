import { realmCache } from '../../../realm/realm-cache';
import type { RealmRecord } from '../../../realm/realm-record';
import { getRealmRecordById } from '../../../realm/realm-store';
import type { DerivedStore } from '../../../runtime/derived-stores';
import { counted, differingKeys } from '../compare';

// The host -> realm cache (lib/realm/realm-cache.ts) against the realm's record in the global store:
// every host cached for this realm must still be one of its domains and carry its current record
// (including the host-to-App map), and none of its hosts may be cached as unknown.

/** The fields of a record that requests see (dates aside, which only the record's revision tracks). */
function visible(r: RealmRecord): Record<string, unknown> {
  return {
    slug: r.slug,
    displayName: r.displayName,
    description: r.description,
    domains: r.domains,
    applicationDomains: r.applicationDomains,
    primaryDomain: r.primaryDomain,
    isControlPlane: r.isControlPlane,
    isActive: r.isActive,
    databaseName: r.databaseName,
    revision: r.revision,
  };
}

function cachedHostsOf(realmId: string): [string, RealmRecord][] {
  const cache = realmCache();
  return [...cache.byHost.keys()].flatMap((host) => {
    const record = cache.byHost.peek(host);
    return record && record.id === realmId ? [[host, record] as [string, RealmRecord]] : [];
  });
}

/** Hosts of the realm (its domains and App hosts) wrongly cached as unknown. */
function unknownOwnHosts(fresh: RealmRecord): string[] {
  const hosts = new Set([...fresh.domains, ...Object.keys(fresh.applicationDomains)]);
  return [...hosts].filter((h) => realmCache().unknownHosts.has(h));
}

export const realmRecordStore: DerivedStore = {
  name: 'RealmCache',
  async check(realm: RealmRecord) {
    const fresh = await getRealmRecordById(realm.id);
    const out: string[] = [];
    for (const [host, cached] of cachedHostsOf(realm.id)) {
      if (!fresh || !fresh.isActive) out.push(`Host ${host} still resolves to this realm from the cache, but the realm is no longer active.`);
      else if (!fresh.domains.includes(host)) out.push(`Host ${host} is cached for this realm but is no longer one of its domains.`);
      else {
        const fields = differingKeys(visible(cached), visible(fresh));
        if (fields.length) out.push(`Host ${host}: the cached realm record is out of date in: ${fields.join(', ')}.`);
      }
    }
    if (fresh) for (const host of unknownOwnHosts(fresh)) out.push(`Host ${host} belongs to this realm but is cached as unknown.`);
    return out;
  },
  async rebuild(realm: RealmRecord) {
    const cache = realmCache();
    const hosts = cachedHostsOf(realm.id).map(([host]) => host);
    const fresh = await getRealmRecordById(realm.id);
    const unknown = fresh ? unknownOwnHosts(fresh) : [];
    for (const host of hosts) cache.byHost.delete(host);
    for (const host of unknown) cache.unknownHosts.delete(host);
    // A lookup that started before this drop must not store what it read (resolve.ts compares the generation).
    cache.generation++;
    const out: string[] = [];
    if (hosts.length) out.push(`Dropped the cached realm record of ${counted(hosts.length, 'host')}.`);
    if (unknown.length) out.push(`Forgot that ${counted(unknown.length, 'host')} of this realm were unknown.`);
    return out;
  },
};

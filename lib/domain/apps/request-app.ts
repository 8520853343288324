import { normalizeHost } from '../../realm/host';
import type { RealmRecord } from '../../realm/realm-record';
import { BUILT_IN_IDS } from '../built-in-ids';

/**
 * The App a request came in through: the App the realm's ApplicationDomains map gives the Host,
 * else the realm's built-in App. The realm record (cached per host) already carries the map, so
 * this costs no query; rate limits (`app` dimension), invite codes and App mail branding use it.
 */
export function appIdForHost(realm: RealmRecord, hostHeader: string | null | undefined): string {
  const host = normalizeHost(hostHeader);
  return (host && realm.applicationDomains[host]) || BUILT_IN_IDS.mainApp;
}

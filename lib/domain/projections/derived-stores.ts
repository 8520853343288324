import { registeredDerivedStores, type DerivedStore } from '../../runtime/derived-stores';
import { appSettingsStore } from './stores/app-settings';
import { applicationDomainsStore } from './stores/application-domains';
import { groupGraphStore } from './stores/group-graph';
import { realmRecordStore } from './stores/realm-record';
import { realmSettingsStore } from './stores/realm-settings';

/**
 * Every derived store of a realm, in rebuild order: the stored routes first (the realm record is
 * read from them), then the caches; then those the doors registered (the OAuth engine's).
 */
export function derivedStores(): DerivedStore[] {
  const own = [applicationDomainsStore, realmRecordStore, realmSettingsStore, appSettingsStore, groupGraphStore];
  const names = new Set(own.map((s) => s.name));
  return [...own, ...registeredDerivedStores().filter((s) => !names.has(s.name))];
}

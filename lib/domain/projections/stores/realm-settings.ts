import type { RealmRecord } from '../../../realm/realm-record';
import type { DerivedStore } from '../../../runtime/derived-stores';
import { invalidateRealmSettingsCache, loadRealmSettings, peekRealmSettings } from '../../realm-settings/realm-settings';
import { differingKeys } from '../compare';

// The cached realm settings (realm-settings.ts) against the stored document.
export const realmSettingsStore: DerivedStore = {
  name: 'RealmSettings',
  async check(realm: RealmRecord) {
    const cached = peekRealmSettings(realm.id);
    if (!cached) return [];
    const sections = differingKeys(cached, await loadRealmSettings(realm));
    return sections.length ? [`The cached realm settings are out of date in: ${sections.join(', ')}.`] : [];
  },
  async rebuild(realm: RealmRecord) {
    if (!peekRealmSettings(realm.id)) return [];
    invalidateRealmSettingsCache(realm.id);
    return ['Dropped the cached realm settings.'];
  },
};

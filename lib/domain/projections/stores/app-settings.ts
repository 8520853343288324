import type { RealmRecord } from '../../../realm/realm-record';
import { realmDb } from '../../../realm/context';
import type { DerivedStore } from '../../../runtime/derived-stores';
import { dropAppSettings, peekAppSettings, readStoredAppSettings } from '../../apps/app-settings';
import { counted, differingKeys } from '../compare';

// The cached App Settings documents (apps/app-settings.ts) against the Apps' stored settings.
export const appSettingsStore: DerivedStore = {
  name: 'AppSettings',
  async check(realm: RealmRecord) {
    const cached = peekAppSettings(realm.id);
    if (!cached.size) return [];
    const db = await realmDb(realm);
    const rows = await db.app.findMany({ where: { id: { in: [...cached.keys()] } }, select: { id: true, settings: true } });
    const stored = new Map(rows.map((r) => [r.id, readStoredAppSettings(r.settings)]));
    const out: string[] = [];
    for (const [appId, copy] of cached) {
      // An App that does not exist inherits everything: its cached document is {}.
      const sections = differingKeys(copy, stored.get(appId) ?? {});
      if (sections.length) out.push(`Application ${appId}: the cached settings are out of date in: ${sections.join(', ')}.`);
    }
    return out;
  },
  async rebuild(realm: RealmRecord) {
    const dropped = dropAppSettings(realm.id);
    return dropped ? [`Dropped the cached settings of ${counted(dropped, 'application')}.`] : [];
  },
};

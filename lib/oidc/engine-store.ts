import { findLiveClient } from '../domain/oauth-clients/live-client';
import { realmDb } from '../realm/context';
import type { RealmRecord } from '../realm/realm-record';
import { getRealmRecordById } from '../realm/realm-store';
import { registerDerivedStore, type DerivedStore } from '../runtime/derived-stores';
import { clientCache } from './client-cache';
import { toEngineMetadata, type EngineClientMetadata } from './client-metadata';
import { currentEngineFingerprint, invalidateEngines, peekEngine } from './provider-cache';

// The OAuth engine's derived state of a realm (spec 4.7 "Maintenance"): the cached client metadata
// (client-cache.ts) against the OAuthClient rows, and the cached engine (provider-cache.ts) against
// the scopes, APIs, signing keys and settings it is built from. Registered for the maintenance
// routes of lib/domain/projections.

const json = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort()) : x));

function cachedClientKeys(realmId: string): string[] {
  const prefix = `${realmId}:`;
  return [...clientCache().keys()].filter((k) => k.startsWith(prefix));
}

async function clientDifferences(realm: RealmRecord): Promise<string[]> {
  const keys = cachedClientKeys(realm.id);
  if (!keys.length) return [];
  const db = await realmDb(realm);
  const out: string[] = [];
  for (const key of keys) {
    const clientId = key.slice(realm.id.length + 1);
    const cached: EngineClientMetadata | null | undefined = await clientCache()
      .peek(key)
      ?.catch(() => undefined);
    if (cached === undefined) continue; // failed or just dropped: nothing is served from it
    const live = await findLiveClient(db, clientId);
    const fresh = live ? toEngineMetadata(live.row, live.secretExpiresAt) : null;
    if (cached && !fresh) out.push(`Client ${clientId} is cached as usable but is gone or inactive.`);
    else if (!cached && fresh) out.push(`Client ${clientId} is cached as unknown but exists.`);
    else if (json(cached) !== json(fresh)) out.push(`Client ${clientId}: the engine's cached copy is out of date.`);
  }
  return out;
}

async function engineDifferences(realm: RealmRecord): Promise<string[]> {
  const engine = await peekEngine(realm.id)?.catch(() => undefined);
  if (!engine) return [];
  const record = await getRealmRecordById(realm.id);
  if (record && record.revision !== engine.revision) return ['The OAuth engine was built from an older revision of the realm record.'];
  if (engine.fingerprint !== (await currentEngineFingerprint(realm))) return ['The OAuth engine was built from older scopes, APIs, signing keys or settings.'];
  return [];
}

export const oauthEngineStore: DerivedStore = {
  name: 'OAuthEngine',
  async check(realm) {
    return [...(await engineDifferences(realm)), ...(await clientDifferences(realm))];
  },
  async rebuild(realm) {
    const keys = cachedClientKeys(realm.id);
    for (const key of keys) clientCache().delete(key);
    const hadEngine = Boolean(peekEngine(realm.id));
    invalidateEngines(realm.id);
    return [
      ...(keys.length ? [`Dropped the engine's cached copies of ${keys.length === 1 ? '1 client' : `${keys.length} clients`}.`] : []),
      ...(hadEngine ? ["Dropped the realm's OAuth engine; it is rebuilt on its next request."] : []),
    ];
  },
};

export function registerOAuthEngineStore(): void {
  registerDerivedStore(oauthEngineStore);
}

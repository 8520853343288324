import { LRUCache } from 'lru-cache';
import Provider from 'oidc-provider';
import { publicOrigin } from '../config/env';
import { derivedKey } from '../crypto/secret-box';
import { realmDb, realmDbIfOpen } from '../realm/context';
import { loadSigningKeys, type PrivateJwk } from '../domain/signing-keys/signing-keys';
import { subscribe } from '../events/bus';
import type { RealmRecord } from '../realm/realm-record';
import { cachedPromise, rememberFulfilled, settledValue } from '../runtime/cached-promise';
import { shared } from '../runtime/shared';
import { accountFinder, engineConfiguration } from './configuration';
import { registerNativeGrants } from './native-grants/register';
import { installInternals } from './internals';
import { storedClientMetadata, type AdapterContext } from './adapter';
import { engineHooks } from './engine-hooks';
import { watchProviderEvents } from './provider-events';
import { loadRealmOAuthConfig, type RealmOAuthConfig } from './realm-oauth-config';
import { inEventAreas, type EventArea } from '../events/catalog';

// One oidc-provider per realm (issue 4.1): built on first use, cached, rebuilt when the realm or its
// OAuth configuration changes, evicted when idle. Only realms resolved from a known Host reach here,
// so Host-header injection cannot create providers (docs/environment.md).
export type RealmEngine = {
  realmId: string;
  revision: number;
  issuer: string;
  /** What it was built from (scopes, APIs, keys, registration switch), to tell a stale engine (engine-store.ts). */
  fingerprint: string;
  provider: Provider;
  callback: ReturnType<Provider['callback']>;
};

type Cache = LRUCache<string, Promise<RealmEngine>>;

function cache(): Cache {
  return shared('oidc.providers', () => new LRUCache<string, Promise<RealmEngine>>({ max: 1_000, ttl: 30 * 60_000, updateAgeOnGet: true }));
}

/** Events after which a realm's engine configuration (scopes, APIs, settings, keys) must be rebuilt. */
const REBUILD_EVENT_AREAS: readonly EventArea[] = ['oauth-scope', 'oauth-api', 'realm-settings', 'realm', 'signing-key', 'manifest'];

export function registerProviderInvalidation(): void {
  shared('oidc.providers.subscriber', () =>
    subscribe(async (event) => {
      if (inEventAreas(event.type, REBUILD_EVENT_AREAS)) cache().delete(event.realmId);
    }),
  );
}

/** The realm's cached engine, if one is cached (read without building or refreshing it). */
export function peekEngine(realmId: string): Promise<RealmEngine> | undefined {
  return cache().peek(realmId);
}

/** The configuration an engine is built from, as one comparable string. */
export function engineFingerprint(oauth: RealmOAuthConfig, keys: PrivateJwk[]): string {
  const apis = [...oauth.resourceServers.values()].map((rs) => ({ audience: rs.audience, scopes: [...rs.scopes].sort() }));
  apis.sort((a, b) => a.audience.localeCompare(b.audience));
  return JSON.stringify({ scopes: [...oauth.scopes].sort(), apis, keys: keys.map((k) => k.kid).sort() });
}

/** The fingerprint the realm's engine would be built with now. */
export async function currentEngineFingerprint(realm: RealmRecord): Promise<string> {
  const db = await realmDb(realm);
  const [keys, oauth] = await Promise.all([loadSigningKeys(db), loadRealmOAuthConfig(db)]);
  return engineFingerprint(oauth, keys);
}

export function invalidateEngines(realmId?: string): void {
  if (realmId) cache().delete(realmId);
  else cache().clear();
}

function issuerOf(realm: RealmRecord): string {
  return publicOrigin(realm.primaryDomain);
}

async function build(realm: RealmRecord): Promise<RealmEngine> {
  const db = await realmDb(realm);
  const [keys, oauth, cookieKey] = await Promise.all([loadSigningKeys(db), loadRealmOAuthConfig(db), derivedKey(`oidc-cookies:${realm.id}`)]);
  const issuer = issuerOf(realm);
  const adapter: AdapterContext = { realmId: realm.id, db: () => realmDb(realm), dbIfOpen: () => realmDbIfOpen(realm), realm };
  const provider = new Provider(issuer, engineConfiguration({ realm, keys, cookieKeys: [cookieKey.toString('base64url')], oauth, adapter }));
  // The public scheme is a setting, not something a client may claim: dispatch.ts overwrites the
  // forwarded-proto header, and the engine reads it.
  provider.proxy = true;
  installInternals(provider, (clientId) => storedClientMetadata(adapter, clientId));
  provider.use(engineHooks(realm));
  registerNativeGrants(provider, realm, accountFinder(realm));
  watchProviderEvents(provider, realm);
  const fingerprint = engineFingerprint(oauth, keys);
  return { realmId: realm.id, revision: realm.revision, issuer, fingerprint, provider, callback: provider.callback() };
}

const isCurrent = (engine: RealmEngine, realm: RealmRecord) => engine.revision === realm.revision && engine.issuer === issuerOf(realm);

/** The realm's engine if it is built and current, at once; undefined when engineFor must build or wait. */
export function readyEngine(realm: RealmRecord): RealmEngine | undefined {
  const engine = settledValue(cache().get(realm.id));
  return engine && isCurrent(engine, realm) ? engine : undefined;
}

/** The realm's engine, built or rebuilt as needed. */
export async function engineFor(realm: RealmRecord): Promise<RealmEngine> {
  const c = cache();
  const existing = c.get(realm.id);
  if (existing) {
    const engine = await existing.catch(() => undefined);
    if (engine && isCurrent(engine, realm)) return engine;
    // Stale: rebuilt below, once, however many requests noticed it.
    if (c.get(realm.id) === existing) c.delete(realm.id);
  }
  return rememberFulfilled(cachedPromise(c, realm.id, () => build(realm)));
}

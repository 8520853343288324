import { LRUCache } from 'lru-cache';
import type { RealmRecord } from '../../realm/realm-record';
import { realmDb } from '../../realm/context';
import { shared } from '../../runtime/shared';
import { BUILT_IN_IDS } from '../built-in-ids';
import { realmSettings } from '../realm-settings/realm-settings';
import type { RealmSettings } from '../realm-settings/schema';
import { parseSettings } from './catalog-json';
import { appIdForHost } from './request-app';
import { APP_SETTINGS_SECTIONS, appSettingsSections, type AppSettings } from './settings-schema';

// The settings that apply in an App's context: the realm's, with each section the App overrides
// replaced field by field (spec 4.7 "Applications" Settings). Flows that depend on the App a request
// came through (registration, branding, native grants, DCR, CIMD) read `settingsForApp` or
// `settingsForHost` instead of `realmSettings`.

export type EffectiveSettings = RealmSettings & {
  /** The App's own sections (no realm counterpart): its subdomain and its mail branding override. */
  Origin: { Subdomain: string | null };
  EmailBranding: NonNullable<AppSettings['EmailBranding']>;
};

/** The stored document's sections that still validate; a damaged section inherits rather than failing the flow. */
export function readStoredAppSettings(settingsJson: string | null | undefined): AppSettings {
  const doc = parseSettings(settingsJson);
  const out: Record<string, unknown> = {};
  if (!doc) return out;
  for (const name of APP_SETTINGS_SECTIONS) {
    const parsed = appSettingsSections[name].safeParse(doc[name]);
    if (parsed.success) out[name] = parsed.data;
  }
  return out;
}

function overlay<T extends object>(base: T, override: Record<string, unknown> | null | undefined): T {
  if (!override) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(override)) if (v !== null && v !== undefined) out[k] = v;
  return out as T;
}

/** Pure: the realm settings with the App's overrides applied. */
export function resolveAppSettings(realm: RealmSettings, app: AppSettings): EffectiveSettings {
  return {
    ...realm,
    Branding: overlay(realm.Branding, app.Branding),
    SelfRegistration: overlay(realm.SelfRegistration, app.SelfRegistration),
    RegistrationFields: overlay(realm.RegistrationFields, app.RegistrationFields),
    NativeGrants: overlay(realm.NativeGrants, app.NativeGrants),
    Dcr: overlay(realm.Dcr, app.Dcr),
    Cimd: overlay(realm.Cimd, app.Cimd),
    Origin: { Subdomain: app.Origin?.Subdomain ?? null },
    EmailBranding: app.EmailBranding ?? {},
  };
}

// Stored Apps (name and document), cached like the realm settings (a minute; cleared by App writes
// here and on other instances through the invalidation relay).
type StoredApp = { id: string; slug: string; displayName: string; settings: AppSettings } | null;

function cache(): LRUCache<string, { app: StoredApp }> {
  return shared('app-settings-cache', () => new LRUCache<string, { app: StoredApp }>({ max: 50_000, ttl: 60_000 }));
}

/** Drops the cached App documents of one realm (keys are `realmId:appId`), or of every realm. */
export function invalidateAppSettingsCache(realmId?: string): void {
  if (!realmId) return cache().clear();
  const prefix = `${realmId}:`;
  for (const key of [...cache().keys()]) if (key.startsWith(prefix)) cache().delete(key);
}

/** The realm's cached App documents by App id (read without refreshing them: the maintenance check). */
export function peekAppSettings(realmId: string): Map<string, AppSettings> {
  const prefix = `${realmId}:`;
  const out = new Map<string, AppSettings>();
  for (const key of [...cache().keys()]) {
    const value = key.startsWith(prefix) ? cache().peek(key) : undefined;
    if (value?.app) out.set(key.slice(prefix.length), value.app.settings);
  }
  return out;
}

/** Drops the realm's cached App documents; answers how many there were. */
export function dropAppSettings(realmId: string): number {
  const prefix = `${realmId}:`;
  const keys = [...cache().keys()].filter((k) => k.startsWith(prefix));
  for (const key of keys) cache().delete(key);
  return keys.length;
}

async function storedApp(realm: RealmRecord, appId: string): Promise<StoredApp> {
  const key = `${realm.id}:${appId}`;
  const hit = cache().get(key);
  if (hit) return hit.app;
  const db = await realmDb(realm);
  const row = await db.app.findUnique({ where: { id: appId }, select: { id: true, slug: true, displayName: true, settings: true } });
  const app = row ? { id: row.id, slug: row.slug, displayName: row.displayName, settings: readStoredAppSettings(row.settings) } : null;
  cache().set(key, { app });
  return app;
}

/** Who the App of a request is (for /api/app-info), or null when its id names no App (any more). */
export async function appInContext(ctx: { realm: RealmRecord; appId?: string }): Promise<{ id: string; slug: string; displayName: string } | null> {
  const app = await storedApp(ctx.realm, ctx.appId ?? BUILT_IN_IDS.mainApp);
  return app && { id: app.id, slug: app.slug, displayName: app.displayName };
}

/** The effective settings of an App (an unknown App id inherits everything). */
export async function settingsForApp(realm: RealmRecord, appId: string): Promise<EffectiveSettings> {
  const [base, app] = await Promise.all([realmSettings(realm), storedApp(realm, appId)]);
  return resolveAppSettings(base, app?.settings ?? {});
}

/** The effective settings of the App a request came through (`ctx.appId`; else the built-in App). */
export function settingsInContext(ctx: { realm: RealmRecord; appId?: string }): Promise<EffectiveSettings> {
  return settingsForApp(ctx.realm, ctx.appId ?? BUILT_IN_IDS.mainApp);
}

/** The App a Host routes to (else the built-in App) and its effective settings. */
export async function settingsForHost(realm: RealmRecord, hostHeader: string | null | undefined): Promise<{ appId: string; settings: EffectiveSettings }> {
  const appId = appIdForHost(realm, hostHeader);
  return { appId, settings: await settingsForApp(realm, appId) };
}

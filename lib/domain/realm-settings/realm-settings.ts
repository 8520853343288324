import { LRUCache } from 'lru-cache';
import { requirePermission } from '../../authz/require-permission';
import { REALM_ADMIN } from '../../authz/catalog';
import { validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { issuesToErrors, matchKeys } from '../../web/casing';
import { shared } from '../../runtime/shared';
import type { RealmDb, RealmTx } from '../../db/types';
import type { RealmRecord } from '../../realm/realm-record';
import { realmDb, type DomainContext } from '../../realm/context';
import { realmSettingsSchema, withoutStaleOverrides, type RealmSettings } from './schema';

// Reading and writing a realm's settings. Reads are cached per realm for a minute, like the realm
// record (every sign-in and /api/app-info reads them, and a cache miss opens the realm database); a
// write clears the local cache at once and other instances through the invalidation relay, so a
// change takes effect without a restart.
const ROW_ID = 'realm';

function cache(): LRUCache<string, RealmSettings> {
  return shared('realm-settings-cache', () => new LRUCache<string, RealmSettings>({ max: 20_000, ttl: 60_000 }));
}

/** Drops the cached settings of one realm, or of every realm. */
export function invalidateRealmSettingsCache(realmId?: string): void {
  if (realmId) cache().delete(realmId);
  else cache().clear();
}

/** The realm's cached settings, if cached (read without loading or refreshing: the maintenance check). */
export function peekRealmSettings(realmId: string): RealmSettings | undefined {
  return cache().peek(realmId);
}

/** The stored settings read afresh, bypassing the cache. */
export async function loadRealmSettings(realm: RealmRecord): Promise<RealmSettings> {
  return realmSettingsIn(await realmDb(realm));
}

/** The realm's effective settings: the stored document with every default applied. */
export async function realmSettings(realm: RealmRecord): Promise<RealmSettings> {
  const hit = cache().get(realm.id);
  if (hit) return hit;
  const settings = await loadRealmSettings(realm);
  cache().set(realm.id, settings);
  return settings;
}

/** The settings stored in a realm's database, uncached: for the purge job, which visits realms by database. */
export async function realmSettingsIn(db: RealmDb | RealmTx): Promise<RealmSettings> {
  const row = await db.realmSettings.findUnique({ where: { id: ROW_ID } });
  // Overrides an older version accepted and the rules now refuse are dropped one by one; a stored
  // document that still does not validate (a default range narrowed) falls back to the defaults
  // rather than locking everyone out.
  const parsed = realmSettingsSchema.safeParse(withoutStaleOverrides(row ? JSON.parse(row.document) : {}));
  return parsed.success ? parsed.data : realmSettingsSchema.parse({});
}

/**
 * Stores a whole, already validated document inside the caller's transaction (a manifest's
 * Settings); the caller drops the caches after commit (`invalidateRealmSettingsCache`).
 */
export async function writeRealmSettingsTx(tx: RealmTx, document: RealmSettings): Promise<void> {
  const text = JSON.stringify(document);
  await tx.realmSettings.upsert({
    where: { id: ROW_ID },
    update: { document: text, updatedAt: new Date() },
    create: { id: ROW_ID, document: text, updatedAt: new Date() },
  });
}

export async function readRealmSettings(ctx: DomainContext): Promise<RealmSettings> {
  await requirePermission(ctx, REALM_ADMIN);
  return realmSettings(ctx.realm);
}

/** PUT: the document replaces what is stored (absent sections and fields take their defaults). */
export async function replaceRealmSettings(ctx: DomainContext, document: unknown): Promise<RealmSettings> {
  await requirePermission(ctx, REALM_ADMIN);
  return store(ctx, matchKeys(document, realmSettingsSchema));
}

/** PATCH (spec 4.9): sections merge field by field; a null field or section returns to its default. */
export async function patchRealmSettings(ctx: DomainContext, patch: Record<string, unknown>): Promise<RealmSettings> {
  await requirePermission(ctx, REALM_ADMIN);
  const db = await realmDb(ctx.realm);
  const row = await db.realmSettings.findUnique({ where: { id: ROW_ID } });
  // Stale overrides are dropped here too, so a patch of another section is not refused for them.
  const current = withoutStaleOverrides(row ? JSON.parse(row.document) : {}) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...current };
  for (const [section, value] of Object.entries(matchKeys(patch, realmSettingsSchema) as Record<string, unknown>)) {
    if (value === undefined) continue;
    if (value === null) delete merged[section];
    else if (typeof value === 'object' && !Array.isArray(value) && section !== 'RateLimits') {
      const fields = { ...((merged[section] as Record<string, unknown> | undefined) ?? {}) };
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v === null) delete fields[k];
        else if (v !== undefined) fields[k] = v;
      }
      merged[section] = fields;
    } else merged[section] = value;
  }
  return store(ctx, merged);
}

async function store(ctx: DomainContext, document: unknown): Promise<RealmSettings> {
  const parsed = realmSettingsSchema.safeParse(document ?? {});
  if (!parsed.success) throw validationError(issuesToErrors(parsed.error.issues), 'The settings are not valid.');
  const db = await realmDb(ctx.realm);
  // The sparse input is stored (not the resolved one), so later default changes still apply.
  const text = JSON.stringify(document ?? {});
  await db.realmSettings.upsert({
    where: { id: ROW_ID },
    update: { document: text, updatedAt: new Date() },
    create: { id: ROW_ID, document: text, updatedAt: new Date() },
  });
  invalidateRealmSettingsCache(ctx.realm.id);
  await publish(eventFrom(ctx, 'realm-settings.updated', ctx.realm.id, { sections: Object.keys((document as object) ?? {}) }));
  return parsed.data;
}

import { settings } from '../../config/env';
import { getGlobalDb } from '../../db/global-db';
import { dropRealmDatabase } from '../../db/realm-databases';
import { AppError } from '../../errors/app-error';
import { logError, logInfo } from '../../log/logger';
import { invalidateRealmCache } from '../../realm/realm-cache';
import { provisionRealm } from './create-realm';

/**
 * First start on an empty global store creates and seeds the control-plane realm (CONTRACT.md) and
 * says how to get its first administrator. No token is logged: the CLI prints one on demand.
 */
export async function ensureControlPlane(): Promise<void> {
  const s = settings();
  const db = await getGlobalDb();
  if ((await db.realm.count({ where: { isProvisioned: true } })) > 0) return;
  try {
    await provisionRealm({ Slug: s.controlPlaneSlug, DisplayName: 'Control plane', Domains: s.controlPlaneDomains }, { isControlPlane: true });
  } catch (e) {
    // Another instance starting at the same moment won the race: that is fine.
    if (e instanceof AppError && (e.code === 'Realm.SlugTaken' || e.code === 'Realm.DomainTaken')) return;
    throw e;
  }
  logInfo('control-plane realm created', {
    slug: s.controlPlaneSlug,
    domains: s.controlPlaneDomains,
    next: "Get the first administrator with: npx gatehouse recover bootstrap-admin --email you@example.com (in this working directory, with this server's environment)",
  });
}

/**
 * A realm reservation left by a process that died mid-create (spec 4.8 atomicity across a crash):
 * after ten minutes its database is dropped and the record removed.
 */
export async function sweepAbandonedRealms(olderThanMs = 10 * 60 * 1000): Promise<number> {
  const db = await getGlobalDb();
  const stale = await db.realm.findMany({ where: { isProvisioned: false, createdAt: { lt: new Date(Date.now() - olderThanMs) } } });
  for (const r of stale) {
    try {
      await dropRealmDatabase(r.databaseName);
      await db.realm.delete({ where: { id: r.id } });
    } catch (e) {
      logError('could not sweep an abandoned realm reservation', e, { realmId: r.id });
    }
  }
  if (stale.length) invalidateRealmCache();
  return stale.length;
}

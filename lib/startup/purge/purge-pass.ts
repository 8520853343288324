import { purgeExpiredRevocations } from '../../auth/jwt-access-tokens';
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from '../../db/batched-delete';
import { withRealmDb } from '../../db/realm-pool';
import type { RealmDb } from '../../db/types';
import { purgeExpiredPlatformAudit, purgeExpiredSecurityLog } from '../../domain/audit/retention';
import { purgeExpiredSecrets } from '../../domain/one-time-secrets/one-time-secrets';
import { finishInterruptedDeletions } from '../../domain/privacy/finish-deletion';
import { logError } from '../../log/logger';
import { purgeExpiredEngineRows } from '../../db/oidc-payload-purge';
import { provisionedRealmDatabases } from '../../realm/realm-store';

// One pass of the purge job: every provisioned realm, one at a time (a fleet may hold thousands, and
// their databases cannot all be open at once: realms not in the pool get a short-lived client), each
// table in bounded batches (db/batched-delete.ts), then the platform audit of the global store. A
// realm that fails is logged and skipped; the next pass tries it again. The logs lose only entries
// past their retention (domain/audit/retention.ts).
const REALM_PAGE = 100;

export type PurgeCounts = { secrets: number; engineRows: number; revocations: number; securityLog: number };
export type PurgeReport = { realms: number; failed: number; deleted: PurgeCounts; platformAudit: number; stopped: boolean };

/** Deletes a realm's expired one-time secrets, OAuth engine rows, token revocation records and security-log entries. */
export async function purgeRealm(db: RealmDb, now: Date, limits: BatchLimits, stopped: () => boolean): Promise<PurgeCounts> {
  // Not a count of its own: a self-deletion whose server stopped before its last step is finished here.
  await finishInterruptedDeletions(db, now, stopped);
  return {
    secrets: await purgeExpiredSecrets(db, now, limits, stopped),
    engineRows: await purgeExpiredEngineRows(db, now, limits, stopped),
    revocations: await purgeExpiredRevocations(db, now, limits, stopped),
    securityLog: await purgeExpiredSecurityLog(db, now, limits, stopped),
  };
}

/** The platform audit's expired entries; a failure is logged and the next pass tries again. */
async function purgePlatformAudit(limits: BatchLimits, stopped: () => boolean): Promise<number> {
  try {
    return await purgeExpiredPlatformAudit(new Date(), limits, stopped);
  } catch (e) {
    logError('purge of the platform audit failed', e);
    return 0;
  }
}

/** One pass over every provisioned realm; `stopped()` (shutdown) ends it between batches. */
export async function purgeExpiredRows(options: { limits?: BatchLimits; stopped?: () => boolean } = {}): Promise<PurgeReport> {
  const limits = options.limits ?? DEFAULT_BATCH_LIMITS;
  const stopped = options.stopped ?? (() => false);
  const report: PurgeReport = {
    realms: 0,
    failed: 0,
    deleted: { secrets: 0, engineRows: 0, revocations: 0, securityLog: 0 },
    platformAudit: 0,
    stopped: false,
  };
  let after: string | undefined;
  for (;;) {
    const page = await provisionedRealmDatabases(after, REALM_PAGE);
    for (const realm of page) {
      if (stopped()) return { ...report, stopped: true };
      try {
        const counts = await withRealmDb(realm.databaseName, (db) => purgeRealm(db, new Date(), limits, stopped));
        report.realms++;
        for (const k of Object.keys(counts) as (keyof PurgeCounts)[]) report.deleted[k] += counts[k];
      } catch (e) {
        // Deleted meanwhile, or its database is unreachable: the next pass tries again.
        report.failed++;
        logError('purge of expired rows failed for a realm', e, { realmId: realm.id });
      }
    }
    if (page.length < REALM_PAGE) break;
    after = page[page.length - 1].id;
  }
  if (stopped()) return { ...report, stopped: true };
  return { ...report, platformAudit: await purgePlatformAudit(limits, stopped) };
}

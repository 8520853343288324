import { deleteInBatches, type BatchLimits } from '../../db/batched-delete';
import { getGlobalDb } from '../../db/global-db';
import type { RealmDb } from '../../db/types';
import { platformSettings } from '../platform-settings/platform-settings';
import { realmSettingsIn } from '../realm-settings/realm-settings';

// Retention of the two logs (spec 4.7 "Logs": "Retention jobs delete only expired entries"): the
// purge job deletes a realm's security-log entries older than its Retention.SecurityLogDays and
// platform-audit entries older than the platform's Retention.PlatformAuditDays, in bounded batches
// (db/batched-delete.ts). Each delete re-checks the cut-off, so nothing newer ever goes.

const DAY_MS = 86_400_000;

/** The moment before which an entry has expired. */
export function retentionCutoff(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY_MS);
}

/** A realm's security-log entries older than its SecurityLogDays. */
export async function purgeExpiredSecurityLog(db: RealmDb, now: Date, limits: BatchLimits, stopped?: () => boolean): Promise<number> {
  const days = (await realmSettingsIn(db)).Retention.SecurityLogDays;
  const expired = { createdAt: { lt: retentionCutoff(now, days) } };
  return deleteInBatches(
    limits,
    async (take) => (await db.authLogEvent.findMany({ where: expired, select: { id: true }, orderBy: { createdAt: 'asc' }, take })).map((r) => r.id),
    async (ids) => (await db.authLogEvent.deleteMany({ where: { ...expired, id: { in: ids } } })).count,
    stopped,
  );
}

/** Platform-audit entries older than the platform's PlatformAuditDays. */
export async function purgeExpiredPlatformAudit(now: Date, limits: BatchLimits, stopped?: () => boolean): Promise<number> {
  const days = (await platformSettings()).Retention.PlatformAuditDays;
  const expired = { createdAt: { lt: retentionCutoff(now, days) } };
  const db = await getGlobalDb();
  return deleteInBatches(
    limits,
    async (take) => (await db.platformAuditEvent.findMany({ where: expired, select: { id: true }, orderBy: { createdAt: 'asc' }, take })).map((r) => r.id),
    async (ids) => (await db.platformAuditEvent.deleteMany({ where: { ...expired, id: { in: ids } } })).count,
    stopped,
  );
}

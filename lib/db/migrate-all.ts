import { getGlobalDb } from './global-db';
import { migrateGlobalStore, migrateRealmDatabase } from './migrate';

// `gatehouse migrate`: brings the global store and every provisioned realm database up to date.
// Realms are otherwise upgraded lazily on first use (realm-pool.ts); this is for operators who
// want the whole fleet upgraded, and reports per-database failures instead of stopping at one.

export type MigrateAllReport = {
  /** Migration ids applied to the global store. */
  global: string[];
  /** Provisioned realms examined. */
  realms: number;
  /** Realms that received at least one migration. */
  realmsUpgraded: number;
  /** Total migrations applied across realm databases. */
  realmMigrationsApplied: number;
  /** Realms still being created (their database may not exist yet): left to the creator. */
  skipped: string[];
  failed: { slug: string; databaseName: string; error: string }[];
};

export async function migrateAll(log: (line: string) => void = () => {}): Promise<MigrateAllReport> {
  const global = await migrateGlobalStore();
  log(global.length ? `global store: applied ${global.join(', ')}` : 'global store: up to date');
  const db = await getGlobalDb();
  const realms = await db.realm.findMany({ select: { slug: true, databaseName: true, isProvisioned: true }, orderBy: { slug: 'asc' } });
  const report: MigrateAllReport = { global, realms: 0, realmsUpgraded: 0, realmMigrationsApplied: 0, skipped: [], failed: [] };
  // One at a time: gentle on the database server, and a fleet upgrade is not latency-sensitive.
  for (const realm of realms) {
    if (!realm.isProvisioned) {
      report.skipped.push(realm.slug);
      continue;
    }
    report.realms++;
    try {
      const applied = await migrateRealmDatabase(realm.databaseName);
      if (applied.length) {
        report.realmsUpgraded++;
        report.realmMigrationsApplied += applied.length;
        log(`realm ${realm.slug}: applied ${applied.join(', ')}`);
      }
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      report.failed.push({ slug: realm.slug, databaseName: realm.databaseName, error });
      log(`realm ${realm.slug}: FAILED: ${error}`);
    }
  }
  log(
    `realms: ${report.realms} checked, ${report.realmsUpgraded} upgraded (${report.realmMigrationsApplied} migrations), ` +
      `${report.failed.length} failed, ${report.skipped.length} skipped (not provisioned)`,
  );
  return report;
}

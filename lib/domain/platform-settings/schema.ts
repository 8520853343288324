import { z } from 'zod';
import { settingRules } from '../realm-settings/schema';

// The platform's own settings (the global store's PlatformSettings singleton, one row): for now the
// platform audit's retention (spec 4.7 "Logs"). Stored sparse; defaults apply on read, so a changed
// default reaches a platform that never set the field. Pure, so the console may import it.

export const platformRetentionSchema = z.object({
  /** How long the platform audit keeps an entry; the purge job deletes older ones. */
  PlatformAuditDays: settingRules.retentionDays.default(365),
});

export const platformSettingsSchema = z.object({
  Retention: platformRetentionSchema.prefault({}),
});

export type PlatformSettings = z.infer<typeof platformSettingsSchema>;
export type PlatformRetention = z.infer<typeof platformRetentionSchema>;

/** PUT /api/admin/platform-audit/retention: a full replace (spec 4.9); an absent or null field takes its default. */
export const platformRetentionBodySchema = z.object({ PlatformAuditDays: settingRules.retentionDays.nullish() });

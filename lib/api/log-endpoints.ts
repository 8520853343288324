import { z } from 'zod';
import { readAuthLog, readPlatformAudit } from '../domain/audit/read-logs';
import { logEntrySchema, platformLogQuerySchema, securityLogQuerySchema } from '../domain/audit/schemas';
import { readPlatformRetention, replacePlatformRetention } from '../domain/platform-settings/platform-settings';
import { platformRetentionBodySchema, platformRetentionSchema } from '../domain/platform-settings/schema';
import { defineEndpoint } from '../http/endpoint';

export const authLogEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/admin/auth-log',
  summary: "The realm's security log, newest first; filter by person (what they did and what was done to their account), type and time",
  tags: ['Logs'],
  auth: 'user',
  permission: 'auth-log:read',
  query: securityLogQuerySchema,
  response: z.array(logEntrySchema),
  handler: async ({ ctx, query }) => readAuthLog(ctx, query),
});

export const platformAuditEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/admin/platform-audit',
  summary: 'The PII-free platform log (control plane only), newest first',
  tags: ['Logs'],
  auth: 'user',
  app: 'control-plane',
  controlPlaneOnly: true,
  permission: 'control-plane:platform-audit:read',
  query: platformLogQuerySchema,
  response: z.array(logEntrySchema),
  handler: async ({ ctx, query }) => readPlatformAudit(ctx, query),
});

// The platform audit's retention (spec 4.7 "Logs", 4.9: a singleton, PUT replaces it whole). A
// realm's security-log retention is its realm setting Retention.SecurityLogDays.
const retentionCommon = { tags: ['Logs'], auth: 'user', app: 'control-plane', controlPlaneOnly: true } as const;

export const platformRetentionEndpoint = defineEndpoint({
  ...retentionCommon,
  method: 'GET',
  path: '/api/admin/platform-audit/retention',
  summary: 'How many days the platform audit keeps an entry (control plane only)',
  permission: 'control-plane:platform-audit:read',
  response: platformRetentionSchema,
  handler: async ({ ctx }) => readPlatformRetention(ctx),
});

export const replacePlatformRetentionEndpoint = defineEndpoint({
  ...retentionCommon,
  method: 'PUT',
  path: '/api/admin/platform-audit/retention',
  summary: 'Replace the platform audit retention (absent or null: the default, 365 days); older entries are deleted by the purge job',
  permission: 'realm:admin',
  body: platformRetentionBodySchema,
  response: platformRetentionSchema,
  handler: async ({ ctx, body }) => replacePlatformRetention(ctx, body),
});

import { z } from 'zod';
import { readAuthLog, readPlatformAudit } from '../domain/audit/read-logs';
import { logEntrySchema } from '../domain/audit/schemas';
import { defineEndpoint } from '../http/endpoint';

const logQuery = z.object({
  category: z.string().max(100).optional(),
  eventType: z.string().max(100).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(100)
    .transform((n) => Math.min(n, 1000)),
});

export const authLogEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/admin/auth-log',
  summary: "The realm's security log, newest first",
  tags: ['Logs'],
  auth: 'user',
  permission: 'auth-log:read',
  query: logQuery,
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
  query: logQuery,
  response: z.array(logEntrySchema),
  handler: async ({ ctx, query }) => readPlatformAudit(ctx, query),
});

import { z } from 'zod';

// The realm's entitlements as the control plane sets them (PUT /api/admin/realms/{slug}/entitlements,
// a full replace): each limit a whole number, or null / absent for unlimited.
const limit = z
  .number()
  .int()
  .min(0)
  .max(1_000_000_000)
  .nullish()
  .transform((v) => v ?? null);

export const entitlementsSchema = z.object({ MaxUsers: limit, MaxOAuthClients: limit });

export type EntitlementsInput = z.output<typeof entitlementsSchema>;

export const entitlementsResponseSchema = z.object({ MaxUsers: z.number().nullable(), MaxOAuthClients: z.number().nullable() });

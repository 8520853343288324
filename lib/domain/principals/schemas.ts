import { z } from 'zod';

// GET /api/principal/lookup (spec 4.7 "Principals"): users, groups and service accounts mixed, for
// pickers that assign any of them. A new kind is added here and as a source in lookup-principals.ts.
const principalKinds = ['User', 'Group', 'ServiceAccount'] as const;
export type PrincipalKind = (typeof principalKinds)[number];

export const principalSchema = z.object({
  Id: z.string(),
  Kind: z.enum(principalKinds),
  DisplayName: z.string(),
  Description: z.string().nullish(),
});
export type Principal = z.infer<typeof principalSchema>;

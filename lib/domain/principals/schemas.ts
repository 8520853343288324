import { z } from 'zod';

// GET /api/principal/lookup (spec 4.7 "Principals"): users and groups mixed, for pickers that assign
// either. Service accounts join as a third kind when they exist (a later issue): add the kind here
// and a source in lookup-principals.ts.
export const principalKinds = ['User', 'Group'] as const;
export type PrincipalKind = (typeof principalKinds)[number];

export const principalSchema = z.object({
  Id: z.string(),
  Kind: z.enum(principalKinds),
  DisplayName: z.string(),
  Description: z.string().nullish(),
});
export type Principal = z.infer<typeof principalSchema>;

import { REALM_ADMIN } from '../authz/catalog';
import { defineEndpoint } from '../http/endpoint';
import { checkConsistency } from '../domain/projections/check-consistency';
import { rebuildProjections } from '../domain/projections/rebuild-projections';
import { consistencyReportSchema, rebuildReportSchema } from '../domain/projections/schemas';

// Maintenance (spec 4.7 "Maintenance"): the realm's derived stores (App routes, the realm record,
// settings and group-graph caches, the OAuth engine's caches), checked and rebuilt by realm admins.
const common = { tags: ['Maintenance'], auth: 'user', permission: REALM_ADMIN } as const;

export const consistencyCheckEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/admin/projections/consistency-check',
  summary: "Compare each of the realm's derived stores with what it is derived from; changes nothing",
  response: consistencyReportSchema,
  handler: async ({ ctx }) => checkConsistency(ctx),
});

export const rebuildProjectionsEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/admin/projections/rebuild',
  summary: "Recompute the realm's derived stores (App routes re-derived, caches dropped on every instance); answers what changed",
  response: rebuildReportSchema,
  handler: async ({ ctx }) => rebuildProjections(ctx),
});

import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint';
import { toRealmDto } from '../domain/realms/realm-dto';
import { createRealmResponseSchema, slugParamsSchema } from '../domain/realms/schemas';
import { applyManifest } from '../domain/manifests/apply';
import { exportManifest } from '../domain/manifests/export';
import { importRealm } from '../domain/manifests/import';
import { manifestJsonSchema } from '../domain/manifests/json-schema';
import { applyResultSchema, importRealmSchema, manifestSchemaAnswerSchema } from '../domain/manifests/schema';
import { controlPlaneTarget } from '../domain/manifests/target-realm';

// Realm manifests (spec 4.8; CONTRACT.md "Apps, privacy and manifests"; docs/manifests.md). The
// control plane's routes reach any realm by slug (any other host answers a bare 404); the
// realm-config routes give a realm's own administrators the same for their realm.

/** A manifest of a large realm is bigger than an ordinary body. */
const MANIFEST_BODY_LIMIT = 10 * 1024 * 1024;
/** The body is the manifest itself: apply parses it, so every error carries a JSON pointer. */
const manifestBody = z.unknown().meta({ description: 'A realm manifest: see GET .../manifest-schema.' });
const applyQuery = z.object({ prune: z.enum(['true', 'false']).optional(), dryRun: z.enum(['true', 'false']).optional() });
const options = (q: z.infer<typeof applyQuery>) => ({ prune: q.prune === 'true', dryRun: q.dryRun === 'true' });
/** The export is built field by field from the realm (no ids, no secrets): answered as built. */
const manifestAnswer = z.record(z.string(), z.unknown());

const controlPlane = { tags: ['Realm manifests'], auth: 'user', app: 'control-plane', controlPlaneOnly: true } as const;
const ownRealm = { tags: ['Realm manifests'], auth: 'user', permission: 'realm:admin' } as const;

export const importRealmEndpoint = defineEndpoint({
  ...controlPlane,
  method: 'POST',
  path: '/api/admin/realms/import',
  summary: 'Create a realm from a manifest (the create body plus Manifest); a manifest that fails leaves no realm',
  permission: 'realm:write',
  body: importRealmSchema,
  bodyLimit: MANIFEST_BODY_LIMIT,
  response: createRealmResponseSchema.extend(applyResultSchema.shape),
  status: 201,
  handler: async ({ ctx, body }) => {
    const created = await importRealm(ctx, body);
    return { Realm: toRealmDto(created.realm), InitialAdminInvite: created.invite, ...created.applied };
  },
});

export const realmManifestSchemaEndpoint = defineEndpoint({
  ...controlPlane,
  method: 'GET',
  path: '/api/admin/realms/manifest-schema',
  summary: 'The JSON Schema (2020-12) of a realm manifest, with an example',
  permission: 'realm:write',
  response: manifestSchemaAnswerSchema,
  handler: async () => manifestJsonSchema(),
});

export const applyRealmManifestEndpoint = defineEndpoint({
  ...controlPlane,
  method: 'POST',
  path: '/api/admin/realms/{slug}/apply',
  summary: 'Apply a manifest to a realm: merge, or with prune=true also delete what it does not name; dryRun=true only plans',
  permission: 'realm:write',
  params: slugParamsSchema,
  query: applyQuery,
  body: manifestBody,
  bodyLimit: MANIFEST_BODY_LIMIT,
  response: applyResultSchema,
  handler: async ({ ctx, params, query, body }) => applyManifest(await controlPlaneTarget(ctx, params.slug, 'realm:write'), body, options(query)),
});

export const exportRealmManifestEndpoint = defineEndpoint({
  ...controlPlane,
  method: 'GET',
  path: '/api/admin/realms/{slug}/export',
  summary: "A realm's structure as a manifest (no users, secrets or ids)",
  permission: 'realm:read',
  params: slugParamsSchema,
  response: manifestAnswer,
  handler: async ({ ctx, params }) => exportManifest(await controlPlaneTarget(ctx, params.slug, 'realm:read')),
});

export const realmConfigSchemaEndpoint = defineEndpoint({
  ...ownRealm,
  method: 'GET',
  path: '/api/admin/realm-config/manifest-schema',
  summary: 'The JSON Schema (2020-12) of a realm manifest, with an example',
  response: manifestSchemaAnswerSchema,
  handler: async () => manifestJsonSchema(),
});

export const realmConfigExportEndpoint = defineEndpoint({
  ...ownRealm,
  method: 'GET',
  path: '/api/admin/realm-config/export',
  summary: "This realm's structure as a manifest (no users, secrets or ids)",
  response: manifestAnswer,
  handler: async ({ ctx }) => exportManifest(ctx),
});

export const realmConfigApplyEndpoint = defineEndpoint({
  ...ownRealm,
  method: 'POST',
  path: '/api/admin/realm-config/apply',
  summary: 'Apply a manifest to this realm: merge, or with prune=true also delete what it does not name; dryRun=true only plans',
  query: applyQuery,
  body: manifestBody,
  bodyLimit: MANIFEST_BODY_LIMIT,
  response: applyResultSchema,
  handler: async ({ ctx, query, body }) => applyManifest(ctx, body, options(query)),
});

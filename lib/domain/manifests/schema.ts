import { z } from 'zod';
import { appSlugRule, appWriteSchema } from '../apps/schemas';
import { createGroupSchema } from '../groups/schemas';
import { createLoginProviderSchema, EXTERNAL_FLAVORS, jitSchema, updateLoginProviderSchema } from '../login-providers/schemas';
import { createApiSchema } from '../oauth-apis/schemas';
import { createClientSchema } from '../oauth-clients/schemas';
import { createScopeSchema } from '../oauth-scopes/schemas';
import { createRealmSchema } from '../realms/schemas';
import { realmSettingsSchema } from '../realm-settings/schema';
import { createRoleSchema } from '../roles/schemas';
import { createServiceAccountSchema } from '../service-accounts/schemas';
import { checkReferences } from './references';

// A realm manifest (CONTRACT.md "Apps, privacy and manifests", spec 4.8): the realm's structure as
// JSON, without users, secrets or ids. Every item is named by its natural key and refers to others
// by theirs, so one realm's manifest applies to another. The item fields are the admin API's: each
// item is the concept's own create schema with its id references swapped for natural keys.
// A pure module (zod only): the console's Configuration page and the JSON Schema are built from it.

export const MANIFEST_VERSION = 1;

/** An App by slug (the built-in App is `gatehouse`). */
const appRef = appSlugRule;
const groupName = createGroupSchema.shape.Name;
const roleRef = z.object({ App: appRef, Name: createRoleSchema.shape.Name });

export const manifestAppSchema = appWriteSchema;

export const manifestRoleSchema = createRoleSchema.omit({ AppId: true }).extend({ App: appRef });

export const manifestGroupSchema = createGroupSchema.omit({ RoleIds: true, ParentGroupIds: true }).extend({
  /** The roles the group holds, each by its App and name. */
  Roles: z.array(roleRef).max(200).nullish(),
  /** The groups this one is nested in (its members are their members), by name. */
  ParentGroups: z.array(groupName).max(200).nullish(),
});

export const manifestScopeSchema = createScopeSchema;

export const manifestApiSchema = createApiSchema.omit({ AppId: true }).extend({ App: appRef.nullish() });

export const manifestClientSchema = createClientSchema.omit({ AppId: true, ClientId: true }).extend({
  /** Required here: the client's natural key. */
  ClientId: createClientSchema.shape.ClientId.unwrap().unwrap().min(1, 'Enter a client id.'),
  App: appRef.nullish(),
});

/**
 * A provider without its secret (set it afterwards: POST /api/admin/login-providers/{id}/secret).
 * The replace schema has no refinements, so it can be reshaped; the create rules are applied again.
 */
export const manifestProviderSchema = updateLoginProviderSchema
  .omit({ Jit: true, Flavor: true, Slug: true })
  .extend({
    Flavor: createLoginProviderSchema.shape.Flavor,
    Slug: createLoginProviderSchema.shape.Slug,
    Jit: jitSchema
      .omit({ DefaultGroupIds: true })
      .extend({ DefaultGroups: z.array(groupName).max(50).nullish() })
      .nullish(),
  })
  .superRefine((p, ctx) => {
    for (const f of EXTERNAL_FLAVORS) {
      const present = p[f] !== undefined && p[f] !== null;
      if (f === p.Flavor && !present) ctx.addIssue({ code: 'custom', path: [f], message: `A ${f} provider needs its ${f} section.` });
      if (f !== p.Flavor && present) ctx.addIssue({ code: 'custom', path: [f], message: `Only a ${f} provider has a ${f} section.` });
    }
    if (p.Flavor === 'Saml' && !p.Slug) ctx.addIssue({ code: 'custom', path: ['Slug'], message: 'A SAML provider needs a slug.' });
  });

export const manifestServiceAccountSchema = createServiceAccountSchema.omit({ GroupIds: true }).extend({
  Groups: z.array(groupName).max(200).nullish(),
});

const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max).optional();

export const manifestSchema = z
  .object({
    Version: z.literal(MANIFEST_VERSION, { error: `Use Version ${MANIFEST_VERSION}.` }),
    Realm: createRealmSchema.pick({ DisplayName: true, Description: true }),
    /** The realm settings document (GET /api/admin/realm-settings); absent leaves them as they are. */
    Settings: realmSettingsSchema.optional(),
    Apps: list(manifestAppSchema, 1000),
    Roles: list(manifestRoleSchema, 10_000),
    Groups: list(manifestGroupSchema, 10_000),
    OAuthScopes: list(manifestScopeSchema, 2000),
    OAuthApis: list(manifestApiSchema, 1000),
    OAuthClients: list(manifestClientSchema, 5000),
    LoginProviders: list(manifestProviderSchema, 200),
    ServiceAccounts: list(manifestServiceAccountSchema, 2000),
  })
  .superRefine(checkReferences);

export type Manifest = z.infer<typeof manifestSchema>;
export type ManifestInput = z.input<typeof manifestSchema>;
export type ManifestApp = z.infer<typeof manifestAppSchema>;
export type ManifestRole = z.infer<typeof manifestRoleSchema>;
export type ManifestGroup = z.infer<typeof manifestGroupSchema>;
export type ManifestScope = z.infer<typeof manifestScopeSchema>;
export type ManifestApi = z.infer<typeof manifestApiSchema>;
export type ManifestClient = z.infer<typeof manifestClientSchema>;
export type ManifestProvider = z.infer<typeof manifestProviderSchema>;
export type ManifestServiceAccount = z.infer<typeof manifestServiceAccountSchema>;

/** The answer of apply (and of a dry run): what changed, as `"<kind>:<key>"`. */
export const applyResultSchema = z.object({
  Created: z.array(z.string()),
  Updated: z.array(z.string()),
  Deleted: z.array(z.string()),
  Unchanged: z.number(),
  /** New confidential clients' secrets, shown this once. */
  ClientSecrets: z.array(z.object({ ClientId: z.string(), ClientSecret: z.string() })).optional(),
});
export type ApplyResult = z.infer<typeof applyResultSchema>;

export const manifestSchemaAnswerSchema = z.object({ Schema: z.record(z.string(), z.unknown()), Example: z.record(z.string(), z.unknown()) });

/** POST /api/admin/realms/import: the create body (DisplayName defaults to the manifest's) plus the manifest. */
export const importRealmSchema = createRealmSchema.omit({ DisplayName: true, Description: true }).extend({
  DisplayName: createRealmSchema.shape.DisplayName.optional(),
  /** Checked by apply's own parser, so its errors carry JSON pointers under `/Manifest`. */
  Manifest: z.unknown(),
});
export type ImportRealmInput = z.infer<typeof importRealmSchema>;

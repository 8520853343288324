import { z } from 'zod';
import { pageQuerySchema } from '../paging';
import { appSettingsSchema } from './settings-schema';

// Wire shapes of /api/app (spec 4.7 "Applications"; CONTRACT.md "Apps, privacy and manifests").
// A pure module: the console's App pages build their forms from these rules.

export const appLookupSchema = z.object({ Id: z.string(), Slug: z.string(), DisplayName: z.string() });

const catalogEntrySchema = z.object({ Name: z.string(), Description: z.string().nullish() });

/** The list item: everything but Settings (spec 4.7: "list omits Settings"). */
export const appSummarySchema = z.object({
  Id: z.string(),
  Slug: z.string(),
  DisplayName: z.string(),
  Description: z.string().nullish(),
  IsBuiltIn: z.boolean(),
  PermissionCatalog: z.array(catalogEntrySchema),
  RoleCount: z.number(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});

/**
 * One App: its sparse Settings (only the sections that are set) and, when Settings.Origin.Subdomain
 * is set, `Host`, the address that subdomain gives it (`<subdomain>.<realm PrimaryDomain>`).
 */
export const appSchema = appSummarySchema.extend({ Settings: appSettingsSchema.nullish(), Host: z.string().nullish() });

export const appListQuerySchema = pageQuerySchema;
/** An App id, or its slug (the built-in App is `gatehouse` in every realm). */
export const appIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** App slugs follow the realm slug rules (spec 2.1): they name the App in groups' BoundTo and in tokens. */
export const appSlugRule = z
  .string({ error: 'Enter a slug.' })
  .trim()
  .min(1, { error: 'Enter a slug.', abort: true })
  .regex(/^[a-z][a-z0-9-]{1,61}[a-z0-9]$/, 'Use 3–63 lower-case letters, digits or single hyphens, starting with a letter and not ending with a hyphen.')
  .refine((s) => !s.includes('--'), 'Use single hyphens only.');

/** A permission name of an App's catalog: what roles grant and tokens carry, so no spaces. */
export const permissionNameRule = z
  .string({ error: 'Enter a permission name.' })
  .trim()
  .min(1, 'Enter a permission name.')
  .max(200, 'Use at most 200 characters.')
  .regex(/^[^\s\p{C}]+$/u, 'Use no spaces or control characters, for example orders:read.');

export const catalogEntryInputSchema = z.object({
  Name: permissionNameRule,
  Description: z.string().trim().max(500, 'Use at most 500 characters.').nullish(),
});

/** POST and PUT (a full replace): an absent Description clears it, an absent Settings inherits everything. */
export const appWriteSchema = z.object({
  Slug: appSlugRule,
  DisplayName: z.string({ error: 'Enter a display name.' }).trim().min(1, 'Enter a display name.').max(200, 'Use at most 200 characters.'),
  Description: z.string().trim().max(2000, 'Use at most 2000 characters.').nullish(),
  PermissionCatalog: z
    .array(catalogEntryInputSchema, { error: 'Give the catalog as a list of { Name, Description }.' })
    .max(500, 'Use at most 500 permissions.')
    .superRefine((entries, ctx) => {
      const seen = new Set<string>();
      entries.forEach((e, i) => {
        if (seen.has(e.Name)) ctx.addIssue({ code: 'custom', path: [i, 'Name'], message: `${e.Name} is listed twice.` });
        seen.add(e.Name);
      });
    }),
  Settings: appSettingsSchema.nullish(),
});
export type AppWriteInput = z.infer<typeof appWriteSchema>;

/** What still uses an App, listed in the 409 that refuses its deletion (spec 4.7). */
export const appBlockerSchema = z.object({ Kind: z.enum(['Role', 'OAuthApi', 'OAuthClient', 'InviteCode']), Id: z.string(), Name: z.string() });
export type AppBlocker = z.infer<typeof appBlockerSchema>;

import { z } from 'zod';
import { pageQuerySchema } from '../paging';

// Wire shapes of /api/app, read-only for now (spec 4.7 "Applications").

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

// The sparse override document (spec 4.7 "Settings"): only sections that are set appear. Their
// inner shapes are owned by the settings work; here the known sections are passed through.
const section = z.record(z.string(), z.unknown()).nullish();
const settingsSchema = z.object({
  Origin: section,
  Branding: section,
  EmailBranding: section,
  SelfRegistration: section,
  RegistrationFields: section,
  NativeGrants: section,
  Dcr: section,
  Cimd: section,
});

export const appSchema = appSummarySchema.extend({ Settings: settingsSchema.nullish() });

export const appListQuerySchema = pageQuerySchema;
/** An App id, or its slug (the built-in App is `gatehouse` in every realm). */
export const appIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

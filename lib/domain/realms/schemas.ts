import { z } from 'zod';
import { settingRules } from '../realm-settings/schema';
import { adminInviteSchema, initialAdminSchema } from '../invites/schemas';

// Wire shapes of the realm endpoints (spec 2.1-2.3, 4.8).

const domain = z.string().trim().toLowerCase().min(1).max(253);

export const createRealmSchema = z.object({
  Slug: z.string(),
  DisplayName: z.string().trim().min(1, 'Enter a display name.').max(200),
  Description: z.string().trim().max(2000).nullish(),
  Domains: z.array(domain).min(1).max(50),
  InitialAdmin: initialAdminSchema.nullish(),
  IsControlPlane: z.undefined({ error: 'IsControlPlane is read-only.' }).optional(),
});
export type CreateRealmInput = z.infer<typeof createRealmSchema>;

// Merge-patch (spec 4.9): omitted = unchanged, null or "" on Description clears, booleans are only
// set with true or false, a list is replaced entirely.
export const patchRealmSchema = z.object({
  DisplayName: z.string().trim().min(1).max(200).nullish(),
  Description: z.string().trim().max(2000).nullish(),
  Domains: z.array(domain).max(50).nullish(),
  PrimaryDomain: domain.nullish(),
  IsActive: z.boolean().nullish(),
  Slug: z.undefined({ error: 'Slug is immutable.' }).optional(),
  IsControlPlane: z.undefined({ error: 'IsControlPlane is read-only.' }).optional(),
});
export type PatchRealmInput = z.infer<typeof patchRealmSchema>;

export const realmSchema = z.object({
  Id: z.string(),
  Slug: z.string(),
  DisplayName: z.string(),
  Description: z.string().nullish(),
  Domains: z.array(z.string()),
  ApplicationDomains: z.record(z.string(), z.string()),
  PrimaryDomain: z.string(),
  IsControlPlane: z.boolean(),
  IsActive: z.boolean(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type RealmDto = z.infer<typeof realmSchema>;

export const createRealmResponseSchema = z.object({
  Realm: realmSchema,
  InitialAdminInvite: adminInviteSchema.nullish(),
});

export const slugParamsSchema = z.object({ slug: z.string().min(1).max(100) });

/** GET /api/app-info: public realm metadata, branding and what sign-in and registration offer. */
export const appInfoSchema = z.object({
  Realm: z.string(),
  DisplayName: z.string(),
  Description: z.string().nullish(),
  PrimaryDomain: z.string(),
  IsControlPlane: z.boolean(),
  /** The App this host belongs to (an App's subdomain, else the built-in App). */
  App: z.object({ Id: z.string(), Slug: z.string(), DisplayName: z.string() }).nullish(),
  Branding: z.object({ ProductName: z.string(), PrimaryColor: z.string(), LogoUrl: z.string().nullish() }),
  RegistrationFields: z.object({
    Email: z.literal('Required'),
    Username: settingRules.fieldPolicy,
    Firstname: settingRules.fieldPolicy,
    Lastname: settingRules.fieldPolicy,
  }),
  SelfRegistration: z.object({ Posture: settingRules.posture, RequireInviteCode: z.boolean() }),
  SignIn: z.object({ Password: z.boolean(), PasswordlessOnly: z.boolean(), EmailOtp: z.boolean(), MagicLink: z.boolean(), Passkeys: z.boolean() }),
});

import { z } from 'zod';
import { FIELD_POLICIES, settingRules } from '../realm-settings/schema';

// An App's `Settings` (spec 4.7 "Applications"; CONTRACT.md "Apps, privacy and manifests"): the
// per-App override of the realm settings of the same name, carried whole on POST and PUT. A present
// section overrides, a null or absent section inherits the realm's, and a null or absent field
// inherits that field. A pure module: the console's App form builds its rules from it.

/** One DNS label: `s` routes the host `s.<realm PrimaryDomain>` to the App. */
export const subdomainRule = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'Use one DNS label: letters, digits and hyphens, not starting or ending with a hyphen.');

const nullableFields = <T extends z.ZodRawShape>(shape: T) =>
  z
    .object(
      Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, (v as z.ZodType).nullish()])) as unknown as {
        [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>>;
      },
    )
    .strict();

export const appSettingsSections = {
  Origin: nullableFields({ Subdomain: subdomainRule }),
  Branding: nullableFields({ ProductName: settingRules.productName, PrimaryColor: settingRules.primaryColor, LogoUrl: settingRules.logoUrl }),
  EmailBranding: nullableFields({
    ProductName: settingRules.productName,
    PrimaryColor: settingRules.primaryColor,
    LogoUrl: settingRules.logoUrl,
    SenderName: z.string().trim().max(100, 'Use at most 100 characters.'),
    FooterText: z.string().trim().max(500, 'Use at most 500 characters.'),
  }),
  SelfRegistration: nullableFields({ Posture: settingRules.posture, RequireInviteCode: z.boolean() }),
  RegistrationFields: nullableFields({ Username: z.enum(FIELD_POLICIES), Firstname: z.enum(FIELD_POLICIES), Lastname: z.enum(FIELD_POLICIES) }),
  NativeGrants: nullableFields({ Enabled: z.boolean() }),
  Dcr: nullableFields({ Enabled: z.boolean() }),
  Cimd: nullableFields({ Enabled: z.boolean() }),
} as const;

export type AppSettingsSection = keyof typeof appSettingsSections;
export const APP_SETTINGS_SECTIONS = Object.keys(appSettingsSections) as AppSettingsSection[];

/** The whole document as written by POST/PUT: every section nullable. */
export const appSettingsSchema = z
  .object(
    Object.fromEntries(Object.entries(appSettingsSections).map(([k, v]) => [k, v.nullish()])) as {
      [K in AppSettingsSection]: z.ZodOptional<z.ZodNullable<(typeof appSettingsSections)[K]>>;
    },
  )
  .strict();

export type AppSettings = z.infer<typeof appSettingsSchema>;

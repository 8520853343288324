import { z } from 'zod';
import { FIELD_POLICIES, settingRules } from '../realm-settings/schema';

// An App's `Settings` (spec 4.7 "Applications"; CONTRACT.md "Apps, privacy and manifests"): the
// per-App override of the realm settings of the same name, carried whole on POST and PUT. A present
// section overrides, a null or absent section inherits the realm's, and a null or absent field
// inherits that field. A pure module: the console's App form builds its rules from it.
//
// Every rule carries a message a person can act on (the API answers them as Validation.Failed at
// paths like `Settings.Origin.Subdomain`); zod's own wording never reaches a client.

/** One DNS label: `s` routes the host `s.<realm PrimaryDomain>` to the App. */
export const subdomainRule = z
  .string({ error: 'Enter a subdomain, such as shop.' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'Use one DNS label: letters, digits and hyphens, not starting or ending with a hyphen.');

const yesNo = z.boolean({ error: 'Use true or false.' });
const fieldPolicy = z.enum(FIELD_POLICIES, { error: 'Choose Off, Optional or Required.' });
const postureRule = z.enum(settingRules.posture.options, { error: 'Choose Off, JitOnOtp or ExplicitEndpoint.' });
const text = (max: number) => z.string({ error: 'Enter text.' }).trim().max(max, `Use at most ${max} characters.`);

/** An empty text field inherits, like a null one: forms send what the person left blank. */
const blankInherits = <T extends z.ZodType>(rule: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), rule.nullish());

/** A section: every field nullable (inherits), no unknown field, with a message that names the stray keys. */
const section = <T extends z.ZodRawShape>(name: string, shape: T) =>
  z.strictObject(
    Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, (v as z.ZodType).nullish()])) as unknown as {
      [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>>;
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `${issue.keys.join(', ')} ${issue.keys.length > 1 ? 'are not settings' : 'is not a setting'} of ${name}; it has ${Object.keys(shape).join(', ')}.`
          : issue.code === 'invalid_type'
            ? `Give ${name} as an object of settings, or null to inherit the realm's.`
            : undefined,
    },
  );

export const appSettingsSections = {
  Origin: section('Origin', { Subdomain: subdomainRule }),
  Branding: section('Branding', {
    ProductName: blankInherits(settingRules.productName),
    PrimaryColor: blankInherits(settingRules.primaryColor),
    LogoUrl: blankInherits(settingRules.logoUrl),
  }),
  EmailBranding: section('EmailBranding', {
    ProductName: blankInherits(settingRules.productName),
    PrimaryColor: blankInherits(settingRules.primaryColor),
    LogoUrl: blankInherits(settingRules.logoUrl),
    /** The From display name; the address stays the realm's no-reply address (SPF/DMARC). */
    SenderName: blankInherits(text(100)),
    /** An extra footer line, e.g. the company's postal address. */
    FooterText: blankInherits(text(500)),
  }),
  SelfRegistration: section('SelfRegistration', { Posture: postureRule, RequireInviteCode: yesNo }),
  RegistrationFields: section('RegistrationFields', { Username: fieldPolicy, Firstname: fieldPolicy, Lastname: fieldPolicy }),
  NativeGrants: section('NativeGrants', { Enabled: yesNo }),
  Dcr: section('Dcr', { Enabled: yesNo }),
  Cimd: section('Cimd', { Enabled: yesNo }),
} as const;

export type AppSettingsSection = keyof typeof appSettingsSections;
export const APP_SETTINGS_SECTIONS = Object.keys(appSettingsSections) as AppSettingsSection[];

/** The whole document as written by POST/PUT: every section nullable. */
export const appSettingsSchema = z.strictObject(
  Object.fromEntries(Object.entries(appSettingsSections).map(([k, v]) => [k, v.nullish()])) as {
    [K in AppSettingsSection]: z.ZodOptional<z.ZodNullable<(typeof appSettingsSections)[K]>>;
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${issue.keys.join(', ')} ${issue.keys.length > 1 ? 'are not sections' : 'is not a section'} of Settings; it has ${APP_SETTINGS_SECTIONS.join(', ')}.`
        : issue.code === 'invalid_type'
          ? 'Give Settings as an object of sections, or leave it out to inherit everything.'
          : undefined,
  },
);

export type AppSettings = z.infer<typeof appSettingsSchema>;

/** The stored form: sections and fields that are set, nothing null (the document stays sparse). */
export function sparseAppSettings(settings: AppSettings | null | undefined): AppSettings | null {
  if (!settings) return null;
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of APP_SETTINGS_SECTIONS) {
    const value = settings[name];
    if (!value) continue;
    out[name] = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined));
  }
  return Object.keys(out).length ? out : null;
}

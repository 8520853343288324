import { z } from 'zod';
import { appSettingsSections, subdomainRule, type AppSettings } from '@/lib/domain/apps/settings-schema';
import { appWriteSchema, catalogEntryInputSchema, type appSchema } from '@/lib/domain/apps/schemas';
import { FIELD_POLICIES, settingRules } from '@/lib/domain/realm-settings/schema';
import type { WireOf } from '@/lib/http/wire';

// The App form's values and their translation to the API's document (spec 4.7 "Applications"). The
// form shows every section; a section with "Inherit from the realm" on is sent as null, a blank or
// "Inherit" field as null (it inherits), so the stored document stays as sparse as what was chosen.
// The rules are the API's own (lib/domain/apps/settings-schema.ts), with blank allowed.

export type App = WireOf<typeof appSchema>;

/** Blank inherits; anything else must pass the API's rule, with the API's message. */
const blankOr = (rule: z.ZodType) =>
  z.string().superRefine((value, ctx) => {
    if (!value.trim()) return;
    const r = rule.safeParse(value);
    if (!r.success) ctx.addIssue({ code: 'custom', message: r.error.issues[0]?.message ?? 'This value is not valid.' });
  });

const inherit = z.boolean();
const triState = z.enum(['', 'true', 'false']);
const policy = z.enum(['', ...FIELD_POLICIES]);
const branding = appSettingsSections.Branding.shape;
const mail = appSettingsSections.EmailBranding.shape;

export const appFormSchema = appWriteSchema.pick({ Slug: true, DisplayName: true }).extend({
  Description: z.string().trim().max(2000, 'Use at most 2000 characters.'),
  PermissionCatalog: z.array(catalogEntryInputSchema.extend({ Description: z.string().trim().max(500, 'Use at most 500 characters.') })),
  Settings: z.object({
    Origin: z.object({ Subdomain: blankOr(subdomainRule) }),
    Branding: z.object({
      Inherit: inherit,
      ProductName: blankOr(branding.ProductName),
      PrimaryColor: blankOr(branding.PrimaryColor),
      LogoUrl: blankOr(branding.LogoUrl),
    }),
    EmailBranding: z.object({
      Inherit: inherit,
      ProductName: blankOr(mail.ProductName),
      PrimaryColor: blankOr(mail.PrimaryColor),
      LogoUrl: blankOr(mail.LogoUrl),
      SenderName: blankOr(mail.SenderName),
      FooterText: blankOr(mail.FooterText),
    }),
    SelfRegistration: z.object({ Inherit: inherit, Posture: z.enum(['', ...settingRules.posture.options]), RequireInviteCode: triState }),
    RegistrationFields: z.object({ Inherit: inherit, Username: policy, Firstname: policy, Lastname: policy }),
    NativeGrants: z.object({ Inherit: inherit, Enabled: triState }),
    Dcr: z.object({ Inherit: inherit, Enabled: triState }),
    Cimd: z.object({ Inherit: inherit, Enabled: triState }),
  }),
});
export type AppFormValues = z.infer<typeof appFormSchema>;
type FormSettings = AppFormValues['Settings'];

/** Server field paths the form can show next to a field (the rest go to the summary). */
export const APP_FORM_FIELDS = [
  'Slug',
  'DisplayName',
  'Description',
  'PermissionCatalog',
  'Settings.Origin.Subdomain',
  'Settings.Branding.ProductName',
  'Settings.Branding.PrimaryColor',
  'Settings.Branding.LogoUrl',
  'Settings.EmailBranding.ProductName',
  'Settings.EmailBranding.PrimaryColor',
  'Settings.EmailBranding.LogoUrl',
  'Settings.EmailBranding.SenderName',
  'Settings.EmailBranding.FooterText',
  'Settings.SelfRegistration.Posture',
  'Settings.SelfRegistration.RequireInviteCode',
  'Settings.RegistrationFields.Username',
  'Settings.RegistrationFields.Firstname',
  'Settings.RegistrationFields.Lastname',
] as const;

const text = (v: string | null | undefined) => v ?? '';
const tri = (v: boolean | null | undefined): '' | 'true' | 'false' => (v === true ? 'true' : v === false ? 'false' : '');

export function appFormValues(app?: App): AppFormValues {
  const s: NonNullable<App['Settings']> = app?.Settings ?? {};
  return {
    Slug: app?.Slug ?? '',
    DisplayName: app?.DisplayName ?? '',
    Description: app?.Description ?? '',
    PermissionCatalog: (app?.PermissionCatalog ?? []).map((e) => ({ Name: e.Name, Description: e.Description ?? '' })),
    Settings: {
      Origin: { Subdomain: text(s.Origin?.Subdomain) },
      Branding: {
        Inherit: !s.Branding,
        ProductName: text(s.Branding?.ProductName),
        PrimaryColor: text(s.Branding?.PrimaryColor),
        LogoUrl: text(s.Branding?.LogoUrl),
      },
      EmailBranding: {
        Inherit: !s.EmailBranding,
        ProductName: text(s.EmailBranding?.ProductName),
        PrimaryColor: text(s.EmailBranding?.PrimaryColor),
        LogoUrl: text(s.EmailBranding?.LogoUrl),
        SenderName: text(s.EmailBranding?.SenderName),
        FooterText: text(s.EmailBranding?.FooterText),
      },
      SelfRegistration: {
        Inherit: !s.SelfRegistration,
        Posture: s.SelfRegistration?.Posture ?? '',
        RequireInviteCode: tri(s.SelfRegistration?.RequireInviteCode),
      },
      RegistrationFields: {
        Inherit: !s.RegistrationFields,
        Username: s.RegistrationFields?.Username ?? '',
        Firstname: s.RegistrationFields?.Firstname ?? '',
        Lastname: s.RegistrationFields?.Lastname ?? '',
      },
      NativeGrants: { Inherit: !s.NativeGrants, Enabled: tri(s.NativeGrants?.Enabled) },
      Dcr: { Inherit: !s.Dcr, Enabled: tri(s.Dcr?.Enabled) },
      Cimd: { Inherit: !s.Cimd, Enabled: tri(s.Cimd?.Enabled) },
    },
  };
}

const orNull = (v: string) => (v.trim() ? v.trim() : null);
const boolOrNull = (v: '' | 'true' | 'false') => (v === '' ? null : v === 'true');

/** The Settings document the form describes: inherited sections null, blank fields null. */
export function settingsDocument(f: FormSettings): AppSettings {
  const section = <T extends { Inherit: boolean }, R>(s: T, fields: (s: T) => R): R | null => (s.Inherit ? null : fields(s));
  return {
    Origin: f.Origin.Subdomain.trim() ? { Subdomain: f.Origin.Subdomain.trim() } : null,
    Branding: section(f.Branding, (s) => ({ ProductName: orNull(s.ProductName), PrimaryColor: orNull(s.PrimaryColor), LogoUrl: orNull(s.LogoUrl) })),
    EmailBranding: section(f.EmailBranding, (s) => ({
      ProductName: orNull(s.ProductName),
      PrimaryColor: orNull(s.PrimaryColor),
      LogoUrl: orNull(s.LogoUrl),
      SenderName: orNull(s.SenderName),
      FooterText: orNull(s.FooterText),
    })),
    SelfRegistration: section(f.SelfRegistration, (s) => ({ Posture: s.Posture || null, RequireInviteCode: boolOrNull(s.RequireInviteCode) })),
    RegistrationFields: section(f.RegistrationFields, (s) => ({ Username: s.Username || null, Firstname: s.Firstname || null, Lastname: s.Lastname || null })),
    NativeGrants: section(f.NativeGrants, (s) => ({ Enabled: boolOrNull(s.Enabled) })),
    Dcr: section(f.Dcr, (s) => ({ Enabled: boolOrNull(s.Enabled) })),
    Cimd: section(f.Cimd, (s) => ({ Enabled: boolOrNull(s.Enabled) })),
  };
}

/** The PUT/POST body. A built-in App has no Settings of its own (the realm settings are its). */
export function appBody(v: AppFormValues, builtIn: boolean) {
  return {
    Slug: v.Slug.trim(),
    DisplayName: v.DisplayName.trim(),
    Description: orNull(v.Description),
    PermissionCatalog: v.PermissionCatalog.map((e) => ({ Name: e.Name.trim(), Description: orNull(e.Description) })),
    Settings: builtIn ? null : settingsDocument(v.Settings),
  };
}

/** "Web Shop (EU)" -> "web-shop-eu": the slug a new App's name suggests (the API checks the rules). */
export function slugFrom(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}

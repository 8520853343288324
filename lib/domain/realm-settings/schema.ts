import { z } from 'zod';

// Realm settings (issue 3 item 11): the realm defaults that an App's `Settings` may override. The
// stored document is sparse; every field has a documented default applied on read, so a change to
// a default reaches every realm that never set the field.

const fieldPolicy = z.enum(['Off', 'Optional', 'Required']);
const limit = z.object({ Points: z.number().int().min(1).max(1_000_000), DurationSeconds: z.number().int().min(1).max(86_400 * 7) });
const dimensions = z.object({ Source: limit.optional(), Target: limit.optional(), Client: limit.optional(), App: limit.optional() });

export const realmSettingsSchema = z.object({
  SelfRegistration: z
    .object({
      /** Off: no sign-up; ExplicitEndpoint: /api/account/register; JitOnOtp: an unknown e-mail signing in by code gets an account. */
      Posture: z.enum(['Off', 'JitOnOtp', 'ExplicitEndpoint']).default('Off'),
      /** A single-use invite code is required to sign up. */
      RequireInviteCode: z.boolean().default(false),
    })
    .prefault({}),
  RegistrationFields: z
    .object({ Username: fieldPolicy.default('Optional'), Firstname: fieldPolicy.default('Optional'), Lastname: fieldPolicy.default('Optional') })
    .prefault({}),
  SignIn: z
    .object({
      Password: z.boolean().default(true),
      /** Passwordless-only realms answer 403 to password logins (spec 5.5). */
      PasswordlessOnly: z.boolean().default(false),
      EmailOtp: z.boolean().default(true),
      MagicLink: z.boolean().default(false),
      Passkeys: z.boolean().default(true),
    })
    .prefault({}),
  TwoFactor: z
    .object({
      /** Every user must enrol a second factor; until the grace period ends they may still sign in. */
      Required: z.boolean().default(false),
      GracePeriodDays: z.number().int().min(0).max(365).default(14),
    })
    .prefault({}),
  PasswordPolicy: z
    .object({
      MinLength: z.number().int().min(8).max(128).default(10),
      /** Reject passwords from the bundled list of common passwords. */
      RejectCommon: z.boolean().default(true),
      /** Reject passwords that contain the user name, the e-mail's local part or the realm's name. */
      RejectContextual: z.boolean().default(true),
    })
    .prefault({}),
  Branding: z
    .object({
      ProductName: z.string().trim().max(100).nullish(),
      PrimaryColor: z.string().regex(/^#[0-9a-fA-F]{6}$/).default('#1f4f8f'),
      LogoUrl: z.url({ protocol: /^https?$/ }).max(2000).nullish(),
    })
    .prefault({}),
  /** Native cookieless grants (spec 4.4): off by default; an App may override. */
  NativeGrants: z.object({ Enabled: z.boolean().default(false) }).prefault({}),
  /** OAuth dynamic client registration (RFC 7591) at /connect/register: off by default, as open registration lets anyone create clients. */
  Dcr: z.object({ Enabled: z.boolean().default(false) }).prefault({}),
  /** Overrides of rate-limit ceilings, by policy name and dimension (spec 8). */
  RateLimits: z.record(z.string().max(64), dimensions).default({}),
});

export type RealmSettings = z.infer<typeof realmSettingsSchema>;

export const DEFAULT_REALM_SETTINGS: RealmSettings = realmSettingsSchema.parse({});

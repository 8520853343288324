import { z } from 'zod';
import { dimensionKey, isRateLimitPolicyName, overridableDimensions } from '../../rate-limit/policies';

// Realm settings (issue 3 item 11): the realm defaults that an App's `Settings` may override. The
// stored document is sparse; every field has a documented default applied on read, so a change to
// a default reaches every realm that never set the field.

export const FIELD_POLICIES = ['Off', 'Optional', 'Required'] as const;
const REGISTRATION_POSTURES = ['Off', 'JitOnOtp', 'ExplicitEndpoint'] as const;

const wholeNumber = (min: number, max: number) =>
  z.number({ error: 'Enter a whole number.' }).int('Enter a whole number.').min(min, `Use at least ${min}.`).max(max, `Use at most ${max}.`);

/** Field rules of the document, shared with the console's settings form (a pure module). */
export const settingRules = {
  fieldPolicy: z.enum(FIELD_POLICIES),
  posture: z.enum(REGISTRATION_POSTURES),
  gracePeriodDays: wholeNumber(0, 365),
  minPasswordLength: wholeNumber(8, 128),
  productName: z.string().trim().max(100, 'Use at most 100 characters.'),
  primaryColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour like #1f4f8f.'),
  retentionDays: wholeNumber(1, 3650),
  logoUrl: z.url({ protocol: /^https?$/, error: 'Enter an http or https address.' }).max(2000),
  /** A rate-limit override's ceiling: this many hits per window. */
  ratePoints: wholeNumber(1, 1_000_000),
  rateDurationSeconds: wholeNumber(1, 86_400 * 7),
};
const fieldPolicy = settingRules.fieldPolicy;
const limit = z.object({ Points: settingRules.ratePoints, DurationSeconds: settingRules.rateDurationSeconds });
const dimensions = z.strictObject({ Source: limit.optional(), Target: limit.optional(), Client: limit.optional(), App: limit.optional() });

/**
 * Rate-limit overrides name a known policy and only dimensions it counts (overridableDimensions):
 * anything else would be stored and never apply, so it is refused at the field that names it.
 */
const rateLimitOverrides = z.record(z.string().max(64), dimensions).superRefine((overrides, ctx) => {
  for (const [policy, limits] of Object.entries(overrides)) {
    if (!isRateLimitPolicyName(policy)) {
      ctx.addIssue({ code: 'custom', path: [policy], message: `There is no rate-limit policy named "${policy}".` });
      continue;
    }
    const counted = overridableDimensions(policy).map(dimensionKey);
    for (const [key, value] of Object.entries(limits)) {
      if (value !== undefined && !counted.includes(key as (typeof counted)[number])) {
        ctx.addIssue({ code: 'custom', path: [policy, key], message: `The ${policy} policy does not count by ${key}; it counts by ${counted.join(', ')}.` });
      }
    }
  }
});

/**
 * A stored document without the overrides that no longer pass the rule above (written before it,
 * or naming a policy since removed): dropped on read rather than failing the whole document.
 */
export function withoutStaleOverrides(document: unknown): unknown {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return document;
  const stored = (document as Record<string, unknown>).RateLimits;
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return document;
  const kept: Record<string, Record<string, unknown>> = {};
  for (const [policy, limits] of Object.entries(stored as Record<string, unknown>)) {
    if (!isRateLimitPolicyName(policy) || limits === null || typeof limits !== 'object' || Array.isArray(limits)) continue;
    const counted = overridableDimensions(policy).map(dimensionKey) as string[];
    const valid = Object.entries(limits as Record<string, unknown>).filter(([key, value]) => counted.includes(key) && limit.safeParse(value).success);
    if (valid.length) kept[policy] = Object.fromEntries(valid);
  }
  return { ...(document as Record<string, unknown>), RateLimits: kept };
}

export const realmSettingsSchema = z.object({
  SelfRegistration: z
    .object({
      /** Off: no sign-up; ExplicitEndpoint: /api/account/register; JitOnOtp: an unknown e-mail signing in by code gets an account. */
      Posture: settingRules.posture.default('Off'),
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
      GracePeriodDays: settingRules.gracePeriodDays.default(14),
    })
    .prefault({}),
  PasswordPolicy: z
    .object({
      MinLength: settingRules.minPasswordLength.default(10),
      /** Reject passwords from the bundled list of common passwords. */
      RejectCommon: z.boolean().default(true),
      /** Reject passwords that contain the user name, the e-mail's local part or the realm's name. */
      RejectContextual: z.boolean().default(true),
    })
    .prefault({}),
  Branding: z
    .object({
      ProductName: settingRules.productName.nullish(),
      PrimaryColor: settingRules.primaryColor.default('#1f4f8f'),
      LogoUrl: settingRules.logoUrl.nullish(),
    })
    .prefault({}),
  /** Native cookieless grants (spec 4.4): off by default; an App may override. */
  NativeGrants: z.object({ Enabled: z.boolean().default(false) }).prefault({}),
  /** OAuth dynamic client registration (RFC 7591) at /connect/register: off by default, as open registration lets anyone create clients. */
  Dcr: z.object({ Enabled: z.boolean().default(false) }).prefault({}),
  /** OAuth Client ID Metadata Documents: a client_id that is an https URL names its own metadata document. Off by default; an App may override. */
  Cimd: z.object({ Enabled: z.boolean().default(false) }).prefault({}),
  /** Realm feature switches without a section of their own (CONTRACT.md "Real-time hub and flags"). */
  Features: z
    .object({
      /** Positions and their terminals (spec 4.7 "Positions"): their routes answer 404 while off. */
      PositionTerminals: z.boolean().default(false),
    })
    .prefault({}),
  /** How long the realm's security log keeps an entry; a background job deletes older ones (spec 4.7 "Logs"). */
  Retention: z.object({ SecurityLogDays: settingRules.retentionDays.default(365) }).prefault({}),
  /** Overrides of rate-limit ceilings, by policy name and dimension (spec 8). */
  RateLimits: rateLimitOverrides.default({}),
});

export type RealmSettings = z.infer<typeof realmSettingsSchema>;

export const DEFAULT_REALM_SETTINGS: RealmSettings = realmSettingsSchema.parse({});

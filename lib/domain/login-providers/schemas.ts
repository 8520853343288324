import { z } from 'zod';
import {
  EXTERNAL_FLAVORS,
  kerberosSectionSchema,
  ldapSectionSchema,
  oidcSectionSchema,
  samlSectionSchema,
  type ExternalFlavor,
} from '../external-identity/sections';
import { realmSlugRule } from '../realms/slug';

// Wire shapes of /api/admin/login-providers (spec 2.5, 4.7; CONTRACT.md "External identity"). The
// answer never carries a secret, only HasSecret. Pure zod: the console builds its forms from these.

export { EXTERNAL_FLAVORS, type ExternalFlavor };
export type Flavor = ExternalFlavor | 'Internal';

const text = (max: number) => z.string().trim().min(1).max(max);

export const jitSchema = z.object({
  /** Create the person at the first sign-in when nobody is linked or vouched for. Default true. */
  Enabled: z.boolean().default(true),
  /** Groups a person created just in time joins. */
  DefaultGroupIds: z.array(z.string().trim().min(1).max(64)).max(50).nullish(),
});
export type JitInput = z.input<typeof jitSchema>;

/** The body of a JavaScript function `(claims, user)`, run in a sandbox at every external sign-in. */
export const userUpdateScriptSchema = z.string().max(20_000);

const common = {
  Name: text(200),
  IsActive: z.boolean().nullish(),
  Jit: jitSchema.nullish(),
  UserUpdateScript: userUpdateScriptSchema.nullish(),
  Oidc: oidcSectionSchema.nullish(),
  Saml: samlSectionSchema.nullish(),
  Ldap: ldapSectionSchema.nullish(),
  Kerberos: kerberosSectionSchema.nullish(),
};

/** The section a flavor needs must be present, and no other section may be. */
function sectionsMatch(body: { Flavor?: string | null } & Partial<Record<ExternalFlavor, unknown>>, ctx: z.RefinementCtx, flavor: string | null | undefined) {
  for (const f of EXTERNAL_FLAVORS) {
    const present = body[f] !== undefined && body[f] !== null;
    if (f === flavor && !present) ctx.addIssue({ code: 'custom', path: [f], message: `A ${f} provider needs its ${f} section.` });
    if (f !== flavor && present) ctx.addIssue({ code: 'custom', path: [f], message: `Only a ${f} provider has a ${f} section.` });
  }
}

export const createLoginProviderSchema = z
  .object({
    ...common,
    Flavor: z.enum(EXTERNAL_FLAVORS, { message: 'Choose Oidc, Saml, Ldap or Kerberos.' }),
    /** Required for SAML (it names the SP's URLs); slug rules as realms. */
    Slug: realmSlugRule.nullish(),
  })
  .superRefine((body, ctx) => {
    sectionsMatch(body, ctx, body.Flavor);
    if (body.Flavor === 'Saml' && !body.Slug) ctx.addIssue({ code: 'custom', path: ['Slug'], message: 'A SAML provider needs a slug.' });
  });
export type CreateLoginProviderInput = z.infer<typeof createLoginProviderSchema>;

/**
 * PUT replaces the provider's settings. Flavor never changes: omitted or the current value. Slug
 * may change for SAML (the IdP must then learn the new ACS URL).
 */
export const updateLoginProviderSchema = z.object({
  ...common,
  Flavor: z.enum(EXTERNAL_FLAVORS).nullish(),
  Slug: realmSlugRule.nullish(),
});
export type UpdateLoginProviderInput = z.infer<typeof updateLoginProviderSchema>;

/** POST {id}/secret: the one field of the provider's flavor. */
export const providerSecretSchema = z.object({
  ClientSecret: z.string().min(1).max(4096).nullish(),
  BindPassword: z.string().min(1).max(4096).nullish(),
  /** The keytab file, base64. */
  Keytab: z.string().trim().min(1).max(200_000).nullish(),
});
export type ProviderSecretInput = z.infer<typeof providerSecretSchema>;

export const loginProviderSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Flavor: z.enum(['Internal', ...EXTERNAL_FLAVORS]),
  /** The sign-in entry point, for OIDC and SAML providers (spec 2.5). */
  Kind: z.enum(['Oidc', 'Saml']).nullish(),
  Slug: z.string().nullish(),
  IsBuiltIn: z.boolean(),
  IsActive: z.boolean(),
  Jit: z.object({ Enabled: z.boolean(), DefaultGroupIds: z.array(z.string()) }),
  UserUpdateScript: z.string().nullish(),
  Oidc: oidcSectionSchema.nullish(),
  Saml: z
    .object({
      IdpMetadataXml: z.string().nullish(),
      IdpEntityId: z.string().nullish(),
      IdpSsoUrl: z.string().nullish(),
      IdpCertificate: z.string().nullish(),
    })
    .nullish(),
  Ldap: ldapSectionSchema.nullish(),
  Kerberos: kerberosSectionSchema.nullish(),
  HasSecret: z.boolean(),
  /** What to give the upstream: the OIDC redirect URI, or the SAML SP's entity id, ACS and metadata URLs. */
  CallbackUrl: z.string().nullish(),
  SpEntityId: z.string().nullish(),
  AcsUrl: z.string().nullish(),
  SpMetadataUrl: z.string().nullish(),
  /** The Kerberos route a browser starts at. */
  NegotiateUrl: z.string().nullish(),
  CreatedAt: z.date(),
  UpdatedAt: z.date().nullish(),
});
export type LoginProviderDto = z.input<typeof loginProviderSchema>;

export const flavorSchema = z.object({
  Flavor: z.enum(EXTERNAL_FLAVORS),
  /** False when this server cannot run the flavor (Kerberos without its GSSAPI library); Reason says why. */
  Available: z.boolean(),
  Reason: z.string().nullish(),
  /** The body field of POST {id}/secret, when the flavor has a secret. */
  SecretField: z.enum(['ClientSecret', 'BindPassword', 'Keytab']).nullish(),
});

export const externalLoginSchema = z.object({ Id: z.string(), Name: z.string(), Kind: z.enum(['Oidc', 'Saml']), Slug: z.string().nullish() });

export const externalLinkSchema = z.object({
  Id: z.string(),
  LoginProviderId: z.string(),
  Name: z.string(),
  Issuer: z.string(),
  Subject: z.string(),
  CreatedAt: z.date(),
  LastUsedAt: z.date().nullish(),
});
export type ExternalLinkDto = z.input<typeof externalLinkSchema>;

/** An upstream account waiting for its person to confirm the link (the account page's confirmation). */
export const pendingLinkSchema = z.object({
  LoginProviderId: z.string(),
  Provider: z.string(),
  /** The upstream account as its person knows it: its e-mail address, user name or subject. */
  Account: z.string(),
  Email: z.string().nullish(),
  Issuer: z.string(),
  Subject: z.string(),
  ExpiresAt: z.date(),
});
export type PendingLinkDto = z.input<typeof pendingLinkSchema>;

/** POST /api/account/external-links/start: the provider to link (OIDC or SAML). */
export const startLinkSchema = z.object({ LoginProviderId: z.string().min(1).max(64) });

/** Where the browser goes next to sign in at the upstream. */
export const startLinkAnswerSchema = z.object({ Location: z.string() });

import { z } from 'zod';
import { realmSlugRule } from '../realms/slug';

// Wire shapes of /api/admin/login-providers (spec 2.5, 4.7; CONTRACT.md "External identity"). The
// answer never carries a secret, only HasSecret. Pure zod: the console builds its forms from these.

export const EXTERNAL_FLAVORS = ['Oidc', 'Saml', 'Ldap', 'Kerberos'] as const;
export type ExternalFlavor = (typeof EXTERNAL_FLAVORS)[number];
export type Flavor = ExternalFlavor | 'Internal';

const text = (max: number) => z.string().trim().min(1).max(max);
const httpUrl = (message: string) =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), message);

export const oidcSectionSchema = z.object({
  /** The upstream's issuer; its discovery document is read from `<Authority>/.well-known/openid-configuration`. */
  Authority: httpUrl('Enter the issuer URL (https://…).'),
  ClientId: text(500),
  /** Space-separated; default `openid email profile`. `openid` is always requested. */
  Scopes: z.string().trim().max(1000).nullish(),
});
export type OidcSection = z.infer<typeof oidcSectionSchema>;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/;

export const samlSectionSchema = z
  .object({
    /** The IdP's metadata document; when given, the three fields below are read from it. */
    IdpMetadataXml: z.string().trim().max(200_000).nullish(),
    IdpEntityId: z.string().trim().max(1000).nullish(),
    IdpSsoUrl: httpUrl('Enter the IdP single sign-on URL (https://…).').nullish(),
    /** PEM; several certificates may follow each other during a rollover. */
    IdpCertificate: z.string().trim().max(50_000).regex(PEM_CERTIFICATE, 'Paste the PEM certificate (-----BEGIN CERTIFICATE-----…).').nullish(),
  })
  .refine((s) => !!s.IdpMetadataXml || (!!s.IdpEntityId && !!s.IdpSsoUrl && !!s.IdpCertificate), {
    message: 'Give the IdP metadata XML, or the IdP entity id, SSO URL and certificate.',
    path: ['IdpMetadataXml'],
  });
export type SamlSection = z.infer<typeof samlSectionSchema>;

export const ldapSectionSchema = z.object({
  Url: z
    .string()
    .trim()
    .max(2048)
    .refine((v) => /^ldaps?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), 'Enter ldap://host:port or ldaps://host:port.'),
  BindDn: z.string().trim().max(1000).nullish(),
  UserSearchBase: text(1000),
  /** `{username}` is replaced by the escaped (RFC 4515) name typed at sign-in. Default `(uid={username})`. */
  UserSearchFilter: z
    .string()
    .trim()
    .max(1000)
    .refine((v) => v.includes('{username}') && v.startsWith('(') && v.endsWith(')'), 'A filter in parentheses that contains {username}.')
    .nullish(),
  StartTls: z.boolean().nullish(),
});
export type LdapSection = z.infer<typeof ldapSectionSchema>;

export const kerberosSectionSchema = z.object({
  /** The Kerberos realm, upper case by convention (EXAMPLE.COM). */
  Realm: z
    .string()
    .trim()
    .max(255)
    .regex(/^[A-Za-z0-9.-]+$/, 'Letters, digits, dots and hyphens (EXAMPLE.COM).'),
  /** `HTTP/<host>@<REALM>`: the service principal whose key is in the keytab. */
  ServicePrincipal: z
    .string()
    .trim()
    .max(512)
    .regex(/^HTTP\/[A-Za-z0-9.-]+@[A-Za-z0-9.-]+$/, 'HTTP/<host>@<REALM>.'),
});
export type KerberosSection = z.infer<typeof kerberosSectionSchema>;

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

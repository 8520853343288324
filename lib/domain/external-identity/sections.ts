import { z } from 'zod';

// The flavor sections of a login provider (CONTRACT.md "External identity"): what each protocol
// adapter of this folder needs to reach its upstream. Pure zod, shared by the admin API's schemas
// (lib/domain/login-providers/schemas.ts) and the console's forms.

export const EXTERNAL_FLAVORS = ['Oidc', 'Saml', 'Ldap', 'Kerberos'] as const;
export type ExternalFlavor = (typeof EXTERNAL_FLAVORS)[number];

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
  /** PEM of the CA that signed the directory's certificate, for StartTLS and ldaps:// with a private CA (Node's public roots otherwise). */
  CaCertificate: z
    .string()
    .trim()
    .max(50_000)
    .regex(/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/, 'Paste the PEM certificate (-----BEGIN CERTIFICATE-----…).')
    .nullish(),
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

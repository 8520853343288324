import { z } from 'zod';
import { kerberosSectionSchema, ldapSectionSchema, oidcSectionSchema, samlSectionSchema } from '@/lib/domain/external-identity/sections';
import { createLoginProviderSchema, type CreateLoginProviderInput } from '@/lib/domain/login-providers/schemas';
import type { ExternalFlavor, LoginProvider } from './provider-types';

// The login-provider form (CONTRACT.md "External identity"). What the form holds is derived from the
// API's section schemas (strings, and booleans where the API takes one); on submit the values of the
// chosen flavor become the request body and are checked by the API's own create schema, so the form
// and the server agree on every rule, and errors land on fields named like the API's paths
// (`Oidc.Authority`).

type SectionValues<S extends z.ZodType> = { [K in keyof z.input<S>]-?: NonNullable<z.input<S>[K]> extends boolean ? boolean : string };

const SECTION_SCHEMAS = { Oidc: oidcSectionSchema, Saml: samlSectionSchema, Ldap: ldapSectionSchema, Kerberos: kerberosSectionSchema } as const;
type Sections = { [F in ExternalFlavor]: SectionValues<(typeof SECTION_SCHEMAS)[F]> };

export type ProviderValues = Sections & {
  Name: string;
  Slug: string;
  IsActive: boolean;
  Jit: { Enabled: boolean; DefaultGroupIds: string[] };
  UserUpdateScript: string;
};

/** Every field of every section: a field added to an API section must be added here (the type says so). */
const EMPTY_SECTIONS: Sections = {
  Oidc: { Authority: '', ClientId: '', Scopes: '' },
  Saml: { IdpMetadataXml: '', IdpEntityId: '', IdpSsoUrl: '', IdpCertificate: '' },
  Ldap: { Url: '', BindDn: '', UserSearchBase: '', UserSearchFilter: '', StartTls: false, CaCertificate: '' },
  Kerberos: { Realm: '', ServicePrincipal: '' },
};

/** The stored section over the empty one: absent members stay empty strings (or false). */
function sectionOf<F extends ExternalFlavor>(flavor: F, stored: Partial<Record<string, unknown>> | undefined): Sections[F] {
  const empty = EMPTY_SECTIONS[flavor];
  const out: Record<string, unknown> = { ...empty };
  for (const key of Object.keys(empty)) {
    const v = stored?.[key];
    if (typeof v === typeof out[key]) out[key] = v;
  }
  return out as Sections[F];
}

/** The form's values for a new provider of no flavor yet, or for a stored one. */
export function providerValues(provider?: LoginProvider): ProviderValues {
  return {
    Name: provider?.Name ?? '',
    Slug: provider?.Slug ?? '',
    IsActive: provider?.IsActive ?? true,
    Jit: { Enabled: provider?.Jit.Enabled ?? true, DefaultGroupIds: provider?.Jit.DefaultGroupIds ?? [] },
    UserUpdateScript: provider?.UserUpdateScript ?? '',
    Oidc: sectionOf('Oidc', provider?.Oidc),
    Saml: sectionOf('Saml', provider?.Saml),
    Ldap: sectionOf('Ldap', provider?.Ldap),
    Kerberos: sectionOf('Kerberos', provider?.Kerberos),
  };
}

/**
 * The body of POST (and PUT) for `flavor`: only its section; an empty field the API may leave out
 * is sent as null (so its default applies), an empty required one as '' (so its rule speaks).
 */
export function providerBody(flavor: ExternalFlavor, v: ProviderValues): Record<string, unknown> {
  const shape: Record<string, z.ZodType> = SECTION_SCHEMAS[flavor].shape;
  const section: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(v[flavor])) section[key] = value === '' && shape[key]?.safeParse(null).success ? null : value;
  return {
    Flavor: flavor,
    Name: v.Name,
    Slug: flavor === 'Saml' ? v.Slug.trim() || null : null,
    IsActive: v.IsActive,
    Jit: { Enabled: v.Jit.Enabled, DefaultGroupIds: v.Jit.DefaultGroupIds },
    UserUpdateScript: v.UserUpdateScript.trim() ? v.UserUpdateScript : null,
    [flavor]: section,
  };
}

/** The form's resolver schema: the values of `flavor` as a body, checked by the API's create schema. */
export function providerFormSchema(flavor: ExternalFlavor) {
  return z
    .custom<ProviderValues>()
    .transform((v) => providerBody(flavor, v))
    .pipe(createLoginProviderSchema);
}
export type ProviderBody = CreateLoginProviderInput;

/** zod's generic "too small" for an empty required text, in words (schema-level messages win). */
export const friendlyRequired = {
  error: (issue: { code?: string; minimum?: unknown; origin?: string }) =>
    issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1 ? 'Required.' : undefined,
};

import type { flavorSchema, loginProviderSchema } from '@/lib/domain/login-providers/schemas';
import type { WireOf } from '@/lib/http/wire';

// Wire shapes of /api/admin/login-providers (CONTRACT.md "External identity"), derived from the
// response schemas the API parses its answers through. Answers carry HasSecret, never a secret.
export type LoginProvider = WireOf<typeof loginProviderSchema>;
export type FlavorInfo = WireOf<typeof flavorSchema>;
export type ExternalFlavor = FlavorInfo['Flavor'];
export type SecretField = NonNullable<FlavorInfo['SecretField']>;
/** POST {id}/test. */
export type ConnectionTest = { Ok: boolean; Reason?: string; Entries?: number };

export const providerKeys = {
  all: ['login-providers'] as const,
  list: (q: object) => ['login-providers', 'list', q] as const,
  one: (id: string) => ['login-providers', 'one', id] as const,
  flavors: ['login-providers', 'flavors'] as const,
};

/** Words for the flavors, as an administrator knows them. */
export const FLAVOR_LABELS: Record<LoginProvider['Flavor'], string> = {
  Internal: 'Local accounts',
  Oidc: 'OpenID Connect',
  Saml: 'SAML 2.0',
  Ldap: 'LDAP directory',
  Kerberos: 'Kerberos (SPNEGO)',
};

export const FLAVOR_HINTS: Record<ExternalFlavor, string> = {
  Oidc: 'Entra ID, Okta, Google, Keycloak or another OpenID provider: a button on the sign-in page.',
  Saml: 'A SAML 2.0 identity provider (ADFS, Okta, Shibboleth…): a button on the sign-in page.',
  Ldap: 'Passwords checked against a directory (OpenLDAP, Active Directory) by the normal sign-in form.',
  Kerberos: 'Windows domain single sign-on with the browser’s Kerberos ticket.',
};

export const SECRET_LABELS: Record<SecretField, string> = { ClientSecret: 'Client secret', BindPassword: 'Bind password', Keytab: 'Keytab' };

/** Which flavors have a "test connection" (lib/domain/login-providers/test-connection.ts). */
export function canTestConnection(flavor: LoginProvider['Flavor']): boolean {
  return flavor === 'Ldap' || flavor === 'Oidc';
}

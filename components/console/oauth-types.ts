import { CLIENT_CAPABILITIES, GRANT_TYPES } from '@/lib/domain/oauth-clients/client-rules';
import type { clientSchema, createdClientSchema, regeneratedSecretSchema } from '@/lib/domain/oauth-clients/schemas';
import type { apiSchema } from '@/lib/domain/oauth-apis/schemas';
import type { scopeSchema } from '@/lib/domain/oauth-scopes/schemas';
import type { credentialSchema, issuedCredentialSchema } from '@/lib/domain/service-accounts/credential-schemas';
import type { serviceAccountSchema } from '@/lib/domain/service-accounts/schemas';
import type { WireOf } from '@/lib/http/wire';

// Wire shapes of the OAuth client, scope and service-account endpoints as the browser receives
// them (CONTRACT.md "Admin payloads"), derived from the response schemas the API parses through.
// The client, consent and token types are the API's own lists (client-rules.ts, a pure module).
export { ACCESS_TOKEN_TYPES, CLIENT_TYPES, CONSENT_TYPES, type ClientType } from '@/lib/domain/oauth-clients/client-rules';

type GrantType = (typeof GRANT_TYPES)[number];
type GrantDescription = { label: string; hint: string; confidentialOnly?: boolean };

/** Words an administrator recognises for every grant the API accepts: a grant added there must be described here. */
const GRANT_DESCRIPTIONS: Record<GrantType, GrantDescription> = {
  authorization_code: { label: 'Authorization code', hint: 'Browser sign-in with PKCE; needs a redirect URI.' },
  refresh_token: { label: 'Refresh token', hint: 'Rotating refresh tokens (with the offline_access scope).' },
  client_credentials: { label: 'Client credentials', hint: 'The client acts as itself; Confidential clients only.', confidentialOnly: true },
  'urn:ietf:params:oauth:grant-type:device_code': { label: 'Device code', hint: 'Devices without a browser (RFC 8628).' },
  'urn:gatehouse:otp': { label: 'Native: e-mailed code', hint: 'Cookieless sign-in with a 6-digit code.' },
  'urn:gatehouse:magic': { label: 'Native: magic link', hint: 'Cookieless sign-in with a mailed link.' },
  'urn:gatehouse:passkey': { label: 'Native: passkey', hint: 'Cookieless sign-in with a passkey.' },
};

export const GRANT_TYPE_OPTIONS: ({ value: GrantType } & GrantDescription)[] = GRANT_TYPES.map((value) => ({ value, ...GRANT_DESCRIPTIONS[value] }));

type Capability = (typeof CLIENT_CAPABILITIES)[number];

/** Words for every capability the API accepts (all of them need a Confidential client). */
const CAPABILITY_DESCRIPTIONS: Record<Capability, { label: string; hint: string }> = {
  'cap:trusted-forwarder': {
    label: 'Trusted forwarder',
    hint: 'A backend that signs people in on their behalf may name their address (Gatehouse-Forwarded-For), so rate limits count them, not the backend.',
  },
  'cap:introspect-any': { label: 'Introspect any token', hint: 'A resource server may introspect tokens issued to other clients, not only its own.' },
};

export const CAPABILITY_OPTIONS: ({ value: Capability } & { label: string; hint: string })[] = CLIENT_CAPABILITIES.map((value) => ({
  value,
  ...CAPABILITY_DESCRIPTIONS[value],
}));

export function grantLabel(grant: string): string {
  return GRANT_TYPE_OPTIONS.find((g) => g.value === grant)?.label ?? grant;
}

export type OAuthClient = WireOf<typeof clientSchema>;
/** The create answer; ClientSecret only for a Confidential client, and only this once. */
export type CreatedClient = WireOf<typeof createdClientSchema>;
export type RegeneratedSecret = WireOf<typeof regeneratedSecretSchema>;
export type OAuthScope = WireOf<typeof scopeSchema>;
export type OAuthApi = WireOf<typeof apiSchema>;
export type ServiceAccount = WireOf<typeof serviceAccountSchema>;
export type Credential = WireOf<typeof credentialSchema>;
/** The answer to create and rotate: the secret, shown this once. */
export type IssuedCredential = WireOf<typeof issuedCredentialSchema>;

export const oauthKeys = {
  clients: ['oauth-clients'] as const,
  clientList: (q: object) => ['oauth-clients', 'list', q] as const,
  client: (id: string) => ['oauth-clients', 'one', id] as const,
  scopes: ['oauth-scopes'] as const,
  allScopes: ['oauth-scopes', 'all'] as const,
  scopeList: (q: object) => ['oauth-scopes', 'list', q] as const,
  scope: (id: string) => ['oauth-scopes', 'one', id] as const,
  apis: ['oauth-apis'] as const,
  allApis: ['oauth-apis', 'all'] as const,
  apiList: (q: object) => ['oauth-apis', 'list', q] as const,
  api: (id: string) => ['oauth-apis', 'one', id] as const,
  serviceAccounts: ['service-accounts'] as const,
  serviceAccountList: (q: object) => ['service-accounts', 'list', q] as const,
  serviceAccount: (id: string) => ['service-accounts', 'one', id] as const,
  credentials: (id: string) => ['service-accounts', 'credentials', id] as const,
};

/** One URI a line, blanks dropped: how the textareas of the client form map to the API's lists. */
export function linesOf(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

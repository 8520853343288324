// Wire shapes of the OAuth client, scope and service-account endpoints as the browser receives
// them (lib/domain/oauth-clients/schemas.ts, oauth-scopes/schemas.ts, service-accounts/*schemas.ts;
// CONTRACT.md "Admin payloads"). Nulls are omitted on the wire, dates are ISO strings.

export const CLIENT_TYPES = ['Public', 'Confidential'] as const;
export const CONSENT_TYPES = ['Explicit', 'Implicit'] as const;
export const ACCESS_TOKEN_TYPES = ['Jwt', 'Reference'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

/** The grants the API accepts (client-rules.ts), with words an administrator recognises. */
export const GRANT_TYPE_OPTIONS: { value: string; label: string; hint: string; confidentialOnly?: boolean }[] = [
  { value: 'authorization_code', label: 'Authorization code', hint: 'Browser sign-in with PKCE; needs a redirect URI.' },
  { value: 'refresh_token', label: 'Refresh token', hint: 'Rotating refresh tokens (with the offline_access scope).' },
  { value: 'client_credentials', label: 'Client credentials', hint: 'The client acts as itself; Confidential clients only.', confidentialOnly: true },
  { value: 'urn:ietf:params:oauth:grant-type:device_code', label: 'Device code', hint: 'Devices without a browser (RFC 8628).' },
  { value: 'urn:gatehouse:otp', label: 'Native: e-mailed code', hint: 'Cookieless sign-in with a 6-digit code.' },
  { value: 'urn:gatehouse:magic', label: 'Native: magic link', hint: 'Cookieless sign-in with a mailed link.' },
  { value: 'urn:gatehouse:passkey', label: 'Native: passkey', hint: 'Cookieless sign-in with a passkey.' },
];

export function grantLabel(grant: string): string {
  return GRANT_TYPE_OPTIONS.find((g) => g.value === grant)?.label ?? grant;
}

export type OAuthClient = {
  Id: string;
  ClientId: string;
  DisplayName: string;
  Description?: string;
  ClientType: string;
  ConsentType: string;
  AccessTokenType: string;
  RedirectUris: string[];
  PostLogoutRedirectUris: string[];
  GrantTypes: string[];
  Scopes: string[];
  Capabilities: string[];
  AppId?: string;
  /** Set on a service-account credential's client: the API refuses changes (409). */
  ServiceAccountId?: string;
  IsDynamic: boolean;
  IsActive: boolean;
  SecretCreatedAt?: string;
  CreatedAt: string;
  UpdatedAt?: string;
};

/** The create answer; ClientSecret only for a Confidential client, and only this once. */
export type CreatedClient = OAuthClient & { ClientSecret?: string };
export type RegeneratedSecret = { ClientId: string; ClientSecret: string };

export type OAuthScope = { Id: string; Name: string; DisplayName?: string; Description?: string; Resources: string[]; IsBuiltIn: boolean };

export type ServiceAccount = {
  Id: string;
  Name: string;
  Description?: string;
  IsActive: boolean;
  GroupIds: string[];
  CredentialCount: number;
  CreatedAt: string;
  UpdatedAt?: string;
};

export type Credential = {
  Id: string;
  ServiceAccountId: string;
  /** The client_id to present at /connect/token with grant_type=client_credentials. */
  ClientId: string;
  DisplayName: string;
  Scopes: string[];
  ExpiresAt?: string;
  IsExpired: boolean;
  CreatedAt: string;
  RotatedAt?: string;
  LastUsedAt?: string;
};

/** The answer to create and rotate: the secret, shown this once. */
export type IssuedCredential = Credential & { ClientSecret: string };

export const oauthKeys = {
  clients: ['oauth-clients'] as const,
  clientList: (q: object) => ['oauth-clients', 'list', q] as const,
  client: (id: string) => ['oauth-clients', 'one', id] as const,
  allScopes: ['oauth-scopes', 'all'] as const,
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

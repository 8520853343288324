import { parseStringList } from '../db/json-list';
import type { Registration } from '../domain/oauth-clients/registered-client';

// How an OAuthClient row (spec 4.7, CONTRACT admin payload) reads to the engine, and how a
// dynamically registered client's metadata (RFC 7591) is stored as one. Gatehouse's own fields ride
// along as extra client metadata, declared in configuration.ts.
export type OAuthClientRow = {
  id: string;
  clientId: string;
  displayName: string;
  clientType: string;
  consentType: string;
  accessTokenType: string;
  secretHash: string | null;
  redirectUris: string;
  postLogoutRedirectUris: string;
  grantTypes: string;
  scopes: string;
  capabilities: string;
  appId: string | null;
  serviceAccountId: string | null;
  /** A position's terminal (spec 4.7 "Positions"): its tokens carry `position_id`. */
  positionId?: string | null;
  isDynamic: boolean;
  metadata: string;
  isActive: boolean;
};

export type EngineClientMetadata = Record<string, unknown> & { client_id: string };

/**
 * The engine reads a client without `scope` as "may request any scope" and refuses an empty one as
 * invalid metadata. A client whose Scopes list is empty may request none, so the engine is given
 * this placeholder instead: a scope it knows (configuration.ts adds it) that grants nothing.
 */
export const NO_SCOPE = 'urn:gatehouse:no-scope';

/** The extra metadata names, as the engine must declare them. */
export const GATEHOUSE_CLIENT_PROPERTIES = ['consent_type', 'access_token_type', 'app_id', 'capabilities', 'service_account_id', 'position_id'] as const;

function dynamicExtras(row: OAuthClientRow): Record<string, unknown> {
  if (!row.isDynamic) return {};
  try {
    const value: unknown = JSON.parse(row.metadata);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function toEngineMetadata(row: OAuthClientRow, secretExpiresAt?: Date | null): EngineClientMetadata {
  const confidential = row.clientType === 'Confidential';
  const grantTypes = parseStringList(row.grantTypes);
  const scopes = parseStringList(row.scopes);
  const extras = dynamicExtras(row);
  const redirectUris = parseStringList(row.redirectUris);
  // A private-use scheme (com.example.app:/cb) marks a native app (RFC 8252); the engine accepts
  // such redirect URIs only for clients of that application type.
  const native = redirectUris.some((u) => !/^https?:/i.test(u));
  const metadata: EngineClientMetadata = {
    ...extras,
    ...(native ? { application_type: 'native' } : {}),
    client_id: row.clientId,
    client_name: row.displayName,
    grant_types: grantTypes,
    response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
    redirect_uris: redirectUris,
    post_logout_redirect_uris: parseStringList(row.postLogoutRedirectUris),
    scope: scopes.length ? scopes.join(' ') : NO_SCOPE,
    token_endpoint_auth_method: confidential ? (extras.token_endpoint_auth_method ?? 'client_secret_basic') : 'none',
    consent_type: row.consentType === 'Implicit' ? 'Implicit' : 'Explicit',
    access_token_type: row.accessTokenType === 'Reference' ? 'Reference' : 'Jwt',
    capabilities: parseStringList(row.capabilities),
  };
  // The engine compares a presented secret with this digest (internals.ts), never with plaintext.
  if (confidential && row.secretHash) metadata.client_secret = row.secretHash;
  if (secretExpiresAt) metadata.client_secret_expires_at = Math.floor(secretExpiresAt.getTime() / 1000);
  if (row.appId) metadata.app_id = row.appId;
  if (row.serviceAccountId) metadata.service_account_id = row.serviceAccountId;
  if (row.positionId) metadata.position_id = row.positionId;
  if (!confidential) delete metadata.client_secret;
  return metadata;
}

const STORED_ELSEWHERE = new Set([
  'client_id',
  'client_secret',
  'client_name',
  'grant_types',
  'redirect_uris',
  'post_logout_redirect_uris',
  'scope',
  ...GATEHOUSE_CLIENT_PROPERTIES,
]);

/** A dynamically registered client's metadata as the registrant's domain operation stores it (DCR upsert). */
export function fromRegistration(metadata: Record<string, unknown>, secretHash: string | null): Registration {
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const extras: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(metadata)) if (!STORED_ELSEWHERE.has(k)) extras[k] = v;
  const name = typeof metadata.client_name === 'string' && metadata.client_name ? metadata.client_name : String(metadata.client_id);
  return {
    clientId: String(metadata.client_id),
    displayName: name.slice(0, 200),
    clientType: metadata.token_endpoint_auth_method === 'none' ? 'Public' : 'Confidential',
    secretHash,
    redirectUris: list(metadata.redirect_uris),
    postLogoutRedirectUris: list(metadata.post_logout_redirect_uris),
    grantTypes: list(metadata.grant_types),
    scopes: typeof metadata.scope === 'string' ? metadata.scope.split(' ').filter((s) => s && s !== NO_SCOPE) : [],
    // Set by the registration's validator from the request's Host (client-trust.ts).
    appId: typeof metadata.app_id === 'string' && metadata.app_id ? metadata.app_id : null,
    metadata: JSON.stringify(extras),
  };
}

/** A Gatehouse extra metadata value on an engine client instance (the engine may camel-case names). */
export function clientExtra(client: unknown, name: (typeof GATEHOUSE_CLIENT_PROPERTIES)[number]): unknown {
  if (!client || typeof client !== 'object') return undefined;
  const c = client as Record<string, unknown>;
  return c[name] ?? c[name.replace(/_([a-z])/g, (_m, ch: string) => ch.toUpperCase())];
}

/** The client's Gatehouse capabilities (`cap:*`), from an engine client instance. */
export function clientCapabilities(client: unknown): string[] {
  const value = clientExtra(client, 'capabilities');
  return Array.isArray(value) ? value.map(String) : [];
}

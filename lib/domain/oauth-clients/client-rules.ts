import { redirectUriErrors } from './redirect-uri';

// What makes an OAuth client's configuration coherent (spec 4.7 "OAuth clients", 2.5; CONTRACT.md
// names). Checked on the state a create or a merge-patch would leave, so a PUT cannot reach a state
// a POST would refuse. Pure; the checks that need storage (scopes, AppId) live in repo.ts.

export const CLIENT_TYPES = ['Public', 'Confidential'] as const;
export const CONSENT_TYPES = ['Explicit', 'Implicit'] as const;
export const ACCESS_TOKEN_TYPES = ['Jwt', 'Reference'] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

export const GRANT_TYPES = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
  'urn:gatehouse:otp',
  'urn:gatehouse:magic',
  'urn:gatehouse:passkey',
] as const;

/** Spec 5.4: a trusted forwarder may name the end user's address (Gatehouse-Forwarded-For). */
const TRUSTED_FORWARDER = 'cap:trusted-forwarder';
/**
 * Introspection (RFC 7662) of any token of the realm, for a resource server that checks tokens
 * issued to other clients; without it a client introspects only its own tokens (issue 8 item 11).
 */
export const INTROSPECT_ANY = 'cap:introspect-any';
/** Every capability a client may hold (the console describes each, oauth-types.ts). */
export const CLIENT_CAPABILITIES = [TRUSTED_FORWARDER, INTROSPECT_ANY] as const;
const CAPABILITIES: readonly string[] = CLIENT_CAPABILITIES;
/** Capabilities that only mean something for a client that authenticates. */
const CONFIDENTIAL_CAPABILITIES: readonly string[] = [TRUSTED_FORWARDER, INTROSPECT_ANY];

export type ClientShape = {
  clientType: ClientType;
  grantTypes: readonly string[];
  redirectUris: readonly string[];
  postLogoutRedirectUris: readonly string[];
  capabilities: readonly string[];
  /** Set on a position's terminal (spec 4.7 "Positions"). */
  positionId?: string | null;
};

/** The scope every sign-in needs (OpenID Connect); `email` and `profile` add those claims. */
export const SIGN_IN_SCOPE = 'openid';

/**
 * The scopes of a client created without any: `openid` when it signs people in (any grant but
 * client_credentials), none when it only acts as itself (an ID token names a person; it has none).
 */
export function defaultClientScopes(grantTypes: readonly string[]): string[] {
  return grantTypes.some((g) => g !== 'client_credentials') ? [SIGN_IN_SCOPE] : [];
}

const KNOWN_GRANTS: ReadonlySet<string> = new Set(GRANT_TYPES);

/** Field errors (PascalCase wire names) for an incoherent client; empty when it is fine. */
export function clientRuleErrors(c: ClientShape): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);

  const unknown = c.grantTypes.filter((g) => !KNOWN_GRANTS.has(g));
  if (unknown.length) add('GrantTypes', `Unknown grant types: ${unknown.join(', ')}. Use ${GRANT_TYPES.join(', ')}.`);
  if (c.grantTypes.length === 0) add('GrantTypes', 'Give at least one grant type.');
  // A public client cannot keep a secret, so it cannot authenticate as itself (RFC 6749 4.4).
  if (c.clientType === 'Public' && c.grantTypes.includes('client_credentials')) add('GrantTypes', 'client_credentials needs a Confidential client.');
  if (c.grantTypes.includes('authorization_code') && c.redirectUris.length === 0) add('RedirectUris', 'authorization_code needs at least one redirect URI.');
  for (const m of redirectUriErrors(c.redirectUris)) add('RedirectUris', m);
  for (const m of redirectUriErrors(c.postLogoutRedirectUris)) add('PostLogoutRedirectUris', m);

  // A terminal authenticates as itself: its tokens say where it acts (position_id).
  if (c.positionId) {
    if (c.clientType !== 'Confidential') add('ClientType', 'A terminal of a position must be a Confidential client.');
    if (!c.grantTypes.includes('client_credentials')) add('GrantTypes', 'A terminal of a position needs the client_credentials grant.');
  }

  const badCaps = c.capabilities.filter((cap) => !CAPABILITIES.includes(cap));
  if (badCaps.length) add('Capabilities', `Unknown capabilities: ${badCaps.join(', ')}. Use ${CAPABILITIES.join(', ')}.`);
  // Vouching for someone else's address, or reading others' tokens, is only credible from a client
  // that authenticates.
  if (c.clientType === 'Public')
    for (const cap of CONFIDENTIAL_CAPABILITIES.filter((x) => c.capabilities.includes(x))) add('Capabilities', `${cap} needs a Confidential client.`);
  return errors;
}

import { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { GRANT_CLAIM, grantClaimValue } from '../auth/jwt-access-tokens';
import { settings } from '../config/env';
import { accessClaims, userClaims } from '../domain/oidc-claims/user-claims';
import { POSITION_CLAIM, positionTerminalsEnabled } from '../domain/positions/feature';
import type { PrivateJwk } from '../domain/signing-keys/signing-keys';
import type { RealmRecord } from '../realm/realm-record';
import { realmAdapter, type AdapterContext } from './adapter';
import { engineRequest } from './engine-request';
import { clientMetadataValidator } from './client-trust';
import { metadataDocumentFeature, METADATA_DOCUMENT_MAX_BYTES } from './cimd';
import { engineFetch } from './outbound-fetch';
import { INTROSPECT_ANY } from '../domain/oauth-clients/client-rules';
import { clientCapabilities, clientExtra, GATEHOUSE_CLIENT_PROPERTIES, NO_SCOPE } from './client-metadata';
import { ACR_VALUES } from './acr';
import { OIDC_COOKIE_NAMES, OIDC_ROUTES, interactionPath } from './routes';
import type { RealmOAuthConfig } from './realm-oauth-config';
import { enginePages } from './pages';
import { DPOP_SIGNING_ALGS } from '../crypto/dpop-algorithms';
import { revokeGrantPolicy } from './token-reuse';

// One realm's engine configuration (issue 4.1). Everything realm-specific arrives as arguments;
// the provider is rebuilt when any of it changes (provider-cache.ts).
export type RealmEngineInput = {
  realm: RealmRecord;
  keys: PrivateJwk[];
  cookieKeys: string[];
  oauth: RealmOAuthConfig;
  adapter: AdapterContext;
};

/** Lifetimes in seconds (documented in docs/oauth.md). */
const TOKEN_TTL = {
  AccessToken: 3600,
  AuthorizationCode: 60,
  ClientCredentials: 3600,
  DeviceCode: 600,
  IdToken: 3600,
  Interaction: 3600,
  PushedAuthorizationRequest: 60,
  RefreshToken: 30 * 24 * 3600,
  Session: 14 * 24 * 3600,
  Grant: 30 * 24 * 3600,
} as const;

const CLAIMS: Record<string, string[]> = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name', 'given_name', 'family_name', 'nickname', 'preferred_username', 'updated_at'],
  roles: ['roles'],
  permissions: ['permissions'],
};

/**
 * A position's terminal (spec 4.7 "Positions") names where it acts in the tokens it gets for itself,
 * while the realm's PositionTerminals switch is on.
 */
async function terminalClaims(realm: RealmRecord, ctx: KoaContextWithOIDC): Promise<Record<string, string>> {
  const positionId = clientExtra(ctx.oidc?.client, 'position_id');
  if (typeof positionId !== 'string' || !positionId) return {};
  return (await positionTerminalsEnabled(realm)) ? { [POSITION_CLAIM]: positionId } : {};
}

function clientAppId(ctx: KoaContextWithOIDC): string | null {
  const value = clientExtra(ctx.oidc?.client, 'app_id');
  return typeof value === 'string' ? value : null;
}

/** The engine's account lookup: a live, active user and the claims the client's App gives them. */
export function accountFinder(realm: RealmRecord) {
  return async (ctx: KoaContextWithOIDC, sub: string) => {
    // The account must be live; its roles and permissions are read only for scopes that release them.
    const base = await userClaims(realm, sub, engineRequest()?.reads);
    if (!base) return undefined;
    return {
      accountId: sub,
      claims: async (_use: string, scope: string) => (releasesAccess(scope) ? { ...base, ...(await accessClaims(realm, sub, clientAppId(ctx))) } : base),
    };
  };
}

function releasesAccess(scope: string): boolean {
  const scopes = scope.split(' ');
  return scopes.includes('roles') || scopes.includes('permissions');
}

export function engineConfiguration(input: RealmEngineInput): Configuration {
  const secure = settings().publicScheme === 'https';
  const { oauth, realm } = input;
  const pages = enginePages(realm);
  return {
    adapter: realmAdapter(input.adapter),
    jwks: { keys: input.keys as unknown as NonNullable<Configuration['jwks']>['keys'] },
    cookies: {
      keys: input.cookieKeys,
      names: OIDC_COOKIE_NAMES,
      long: { httpOnly: true, sameSite: 'lax', secure, signed: true },
      short: { httpOnly: true, sameSite: 'lax', secure, signed: true },
    },
    routes: OIDC_ROUTES,
    // NO_SCOPE stands for a client's empty scope list (client-metadata.ts); the engine must know it.
    scopes: [...oauth.scopes, NO_SCOPE],
    claims: Object.fromEntries(Object.entries(CLAIMS).filter(([scope]) => oauth.scopes.includes(scope))),
    conformIdTokenClaims: true,
    acrValues: ACR_VALUES,
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    },
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256', 'ES256'],
      userinfoSigningAlgValues: ['RS256', 'ES256'],
      introspectionSigningAlgValues: ['RS256', 'ES256'],
      authorizationSigningAlgValues: ['RS256', 'ES256'],
      requestObjectSigningAlgValues: ['RS256', 'ES256', 'EdDSA', 'PS256'],
      clientAuthSigningAlgValues: ['RS256', 'ES256', 'EdDSA', 'PS256'],
      // Discovery's dpop_signing_alg_values_supported: the same list Gatehouse's own API verifies proofs with.
      dPoPSigningAlgValues: [...DPOP_SIGNING_ALGS],
    },
    extraClientMetadata: {
      properties: [...GATEHOUSE_CLIENT_PROPERTIES],
      // Registrations and metadata documents cannot claim Gatehouse's trusted properties, and meet the
      // admin API's rules (client-trust.ts, registration-policy.ts).
      validator: clientMetadataValidator(realm, oauth.scopes),
    },
    fetch: engineFetch(realm.slug),
    fetchResponseBodyLimits: { 'client_id metadata document': METADATA_DOCUMENT_MAX_BYTES, jwks_uri: 64 * 1024, sector_identifier_uri: 64 * 1024 },
    responseTypes: ['code', 'none'],
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    ttl: { ...TOKEN_TTL },
    rotateRefreshToken: () => true,
    // Notes a replayed code or refresh token before the engine revokes its grant (token-reuse.ts).
    revokeGrantPolicy,
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    findAccount: accountFinder(realm),
    extraTokenClaims: async (ctx, token) => {
      const t = token as unknown as { accountId?: string; scope?: string; grantId?: string; resourceServer?: { accessTokenFormat?: string } };
      // A JWT names its grant, so it stops when the grant ends (lib/auth/jwt-access-tokens.ts).
      const grant = t.grantId && t.resourceServer?.accessTokenFormat === 'jwt' ? { [GRANT_CLAIM]: grantClaimValue(t.grantId) } : {};
      // A client acting as itself (client_credentials) has no account: a terminal says where it acts.
      if (!t.accountId) Object.assign(grant, await terminalClaims(realm, ctx));
      // JWT access tokens for an API carry the caller's roles and permissions when those scopes were
      // granted, so resource servers need not call userinfo.
      if (!t.accountId || !t.scope || !releasesAccess(t.scope)) return Object.keys(grant).length ? grant : undefined;
      const scopes = t.scope.split(' ');
      const { roles, permissions } = await accessClaims(realm, t.accountId, clientAppId(ctx));
      return { ...grant, ...(scopes.includes('roles') ? { roles } : {}), ...(scopes.includes('permissions') ? { permissions } : {}) };
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // A client introspects its own tokens; any token of the realm only with cap:introspect-any
      // (a resource server checking tokens issued to others). Public clients: their own only.
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) =>
          token.clientId === client.clientId || (client.clientAuthMethod !== 'none' && clientCapabilities(client).includes(INTROSPECT_ANY)),
      },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      claimsParameter: { enabled: true },
      deviceFlow: {
        enabled: true,
        userCodeInputSource: pages.userCodeInputSource,
        userCodeConfirmSource: pages.userCodeConfirmSource,
        successSource: pages.deviceSuccessSource,
      },
      pushedAuthorizationRequests: { enabled: true },
      // On in every engine: the `Dcr` setting of the request's App decides per request (app-gates.ts),
      // as the `Cimd` setting does for metadata documents (cimd.ts).
      registration: { enabled: true, idFactory: () => crypto.randomUUID() },
      registrationManagement: { enabled: true, rotateRegistrationAccessToken: true },
      clientIdMetadataDocument: metadataDocumentFeature(realm),
      rpInitiatedLogout: { enabled: true, logoutSource: pages.logoutSource, postLogoutSuccessSource: pages.postLogoutSuccessSource },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        defaultResource: async (ctx, _client, oneOf) => {
          if (oneOf) return oneOf;
          // A client-credentials request naming only an API's scopes is for that API.
          const requested = String(ctx.oidc.params?.scope ?? '')
            .split(' ')
            .filter(Boolean);
          const matches = [...oauth.resourceServers.values()].filter((rs) => requested.some((s) => rs.scopes.includes(s)));
          return matches.length === 1 ? matches[0].audience : undefined;
        },
        getResourceServerInfo: async (ctx, resourceIndicator, client) => {
          const rs = oauth.resourceServers.get(resourceIndicator);
          if (!rs) throw new errors.InvalidTarget();
          const reference = clientExtra(client, 'access_token_type') === 'Reference';
          return {
            audience: rs.audience,
            scope: rs.scopes.join(' '),
            accessTokenTTL: TOKEN_TTL.AccessToken,
            accessTokenFormat: reference ? 'opaque' : 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          };
        },
      },
    },
    renderError: pages.renderError,
    // Every error reaches the log through provider events (provider-events.ts); stack traces never
    // reach a client.
    allowOmittingSingleRegisteredRedirectUri: true,
  };
}

// Names shared by the `oauth` bench (scenario-oauth.ts) and the bare engine it starts
// (bare-oidc.ts): both engines answer the same paths, scopes and audience, so one request
// definition measures either.

export const OAUTH_BENCH = {
  /** Gatehouse's seeded Management API (lib/domain/realms/seed-realm.ts MANAGEMENT_API). */
  api: { scope: 'gatehouse.management', audience: 'urn:gatehouse:management-api' },
  /** Gatehouse's engine paths (lib/oidc/routes.ts), given to the bare engine too. */
  routes: {
    authorization: '/connect/authorize',
    token: '/connect/token',
    userinfo: '/connect/userinfo',
    introspection: '/connect/introspect',
    revocation: '/connect/revocation',
    jwks: '/.well-known/jwks',
  },
  interactionPrefix: '/connect/interaction/',
  /** Never contacted: the browser walk stops when a redirect leaves for it. */
  redirectUri: 'http://127.0.0.1:9/callback',
  /** The account the bare engine's interaction signs in. */
  bareAccount: 'bench-user',
} as const;

export const BARE = {
  host: 'bare.bench.test',
  client: { id: 'bench-client', secret: 'bench-client-secret-0123456789abcdef0123456789' },
  referenceClient: { id: 'bench-reference', secret: 'bench-reference-secret-0123456789abcdef012345' },
} as const;

/** HTTP Basic client authentication as RFC 6749 2.3.1 spells it (form-encoded id and secret). */
export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

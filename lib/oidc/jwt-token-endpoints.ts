import { verifyAccessToken, verifyJwt } from '../domain/access-tokens/bearer-token';
import { revokeJwt } from '../auth/jwt-access-tokens';
import { realmDb } from '../realm/context';
import { INTROSPECT_ANY } from '../domain/oauth-clients/client-rules';
import type { RealmRecord } from '../realm/realm-record';
import { clientCapabilities } from './client-metadata';

// Introspection (RFC 7662) and revocation (RFC 7009) of JWT access tokens (issue 8 item 15). The
// engine would refuse both with 400 unsupported_token_type, after it authenticated the calling
// client; where it would, it hands the request to the answer below instead (the hook it gets after
// install, scripts/oidc-provider-patch.mjs, set on each request by engine-hooks.ts). The answer uses
// the same client, the same policy as the engine's for its own tokens (a client's own tokens, or any
// with cap:introspect-any), and the same liveness as Gatehouse's bearer check (signature, issuer,
// expiry, live client and service account, live grant, not revoked).

/** Where the patched engine looks for the answer to a structured token (scripts/oidc-provider-patch.mjs). */
export const STRUCTURED_TOKEN_ANSWER = Symbol.for('gatehouse.answerStructuredToken');

type EngineClient = { clientId: string; clientAuthMethod?: string };
type Ctx = {
  status: number;
  body: unknown;
  oidc?: { route?: string; client?: EngineClient; params?: { token?: unknown } };
};

function mayIntrospect(client: EngineClient, tokenClientId: string): boolean {
  return tokenClientId === client.clientId || (client.clientAuthMethod !== 'none' && clientCapabilities(client).includes(INTROSPECT_ANY));
}

async function introspect(realm: RealmRecord, client: EngineClient, token: string): Promise<Record<string, unknown>> {
  const verified = await verifyAccessToken(realm, token);
  const claims = verified?.claims;
  if (!verified || !claims || !mayIntrospect(client, verified.clientId)) return { active: false };
  return {
    active: true,
    client_id: verified.clientId,
    ...(verified.subject ? { sub: verified.subject } : {}),
    scope: verified.scopes.join(' ') || undefined,
    aud: claims.aud,
    exp: claims.exp,
    iat: claims.iat,
    iss: claims.iss,
    jti: claims.jti,
    // RFC 9449 6.2: a DPoP-bound token says so and names its key, as the engine answers for its own tokens.
    ...(verified.jkt ? { cnf: { jkt: verified.jkt }, token_type: 'DPoP' } : { token_type: 'Bearer' }),
  };
}

/**
 * The answer to a structured (JWT) token at introspection or revocation, which the engine calls
 * once the client is authenticated and the token is known to be a JWT, in place of its refusal.
 */
export function structuredTokenAnswer(realm: RealmRecord): (ctx: Ctx) => Promise<void> {
  return async (ctx) => {
    const route = ctx.oidc?.route;
    const client = ctx.oidc?.client;
    const token = ctx.oidc?.params?.token;
    // The engine calls it from these two routes only, with both set; anything else is refused as the engine would.
    if ((route !== 'introspection' && route !== 'revocation') || !client || typeof token !== 'string') {
      ctx.status = 400;
      ctx.body = { error: 'unsupported_token_type', error_description: 'structured tokens are not accepted here' };
      return;
    }
    await (route === 'introspection' ? answerIntrospection(realm, ctx, client, token) : answerRevocation(realm, ctx, client, token));
  };
}

async function answerIntrospection(realm: RealmRecord, ctx: Ctx, client: EngineClient, token: string): Promise<void> {
  ctx.status = 200;
  ctx.body = await introspect(realm, client, token);
}

// A token that does not verify is no token of ours (RFC 7009 2.2: still 200).
async function answerRevocation(realm: RealmRecord, ctx: Ctx, client: EngineClient, token: string): Promise<void> {
  const claims = await verifyJwt(realm, token);
  if (claims && claims.client_id !== client.clientId) {
    ctx.status = 400;
    ctx.body = { error: 'invalid_request', error_description: 'client is not authorized to revoke the presented token' };
    return;
  }
  if (claims) await revokeJwt(await realmDb(realm), claims);
  ctx.status = 200;
  ctx.body = '';
}

import { verifyAccessToken, verifyJwt } from '../domain/access-tokens/bearer-token';
import { revokeJwt } from '../auth/jwt-access-tokens';
import { realmDb } from '../realm/context';
import { INTROSPECT_ANY } from '../domain/oauth-clients/client-rules';
import type { RealmRecord } from '../realm/realm-record';
import { clientCapabilities } from './client-metadata';

// Introspection (RFC 7662) and revocation (RFC 7009) of JWT access tokens (issue 8 item 15). The
// engine refuses both with 400 unsupported_token_type, after it authenticated the calling client;
// the hook below then answers instead (engine-hooks.ts), with the same client, the same policy as the
// engine's for its own tokens (a client's own tokens, or any with cap:introspect-any), and the same
// liveness as Gatehouse's bearer check (signature, issuer, expiry, live client and service account,
// live grant, not revoked).

type EngineClient = { clientId: string; clientAuthMethod?: string };
type Ctx = {
  status: number;
  body: unknown;
  oidc?: { route?: string; client?: EngineClient; params?: { token?: unknown } };
};

function refusedAsStructured(ctx: Ctx): boolean {
  const body = ctx.body as { error?: string } | undefined;
  return ctx.status === 400 && body?.error === 'unsupported_token_type';
}

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
    token_type: 'Bearer',
  };
}

/** After the engine answered (engine-hooks.ts): answers what it refused as a structured (JWT) token. */
export function jwtTokenEndpoints(realm: RealmRecord): (ctx: Ctx) => Promise<void> | undefined {
  return (ctx) => {
    const route = ctx.oidc?.route;
    if ((route !== 'introspection' && route !== 'revocation') || !refusedAsStructured(ctx)) return undefined;
    const client = ctx.oidc?.client;
    const token = ctx.oidc?.params?.token;
    if (!client || typeof token !== 'string') return undefined;
    return route === 'introspection' ? answerIntrospection(realm, ctx, client, token) : answerRevocation(realm, ctx, client, token);
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

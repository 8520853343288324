import { createHash, randomBytes } from 'node:crypto';
import { cookiesFrom } from './flows';
import { expectStatus, mapLimit, request } from './http';
import { measure, measureSplit, type Measurement, type MeasureOptions } from './load';
import { OAUTH_BENCH, basicAuth } from './oauth-common';
import type { OAuthRowName } from './options';

// Issue 4 "Benchmark": client-credentials tokens, refresh-token exchanges and introspections per
// second, each measured on Gatehouse and on a bare oidc-provider (bare-oidc.ts) one after the
// other, with the same requests, connections and duration. What differs is everything Gatehouse
// adds around the engine: Host → realm resolution, the per-realm provider cache, the client
// lookup (client-cache.ts), hashed client secrets, the storage adapter on the realm database,
// account claims from the database.

export type Credentials = { id: string; secret: string };

/** One engine under test, as the load generator sees it. */
export type OAuthSide = {
  label: string;
  port: number;
  /** The Host header naming the realm (Gatehouse) or the bare engine's issuer host. */
  host: string;
  /** Confidential client with client_credentials, authorization_code and refresh_token. */
  client: Credentials;
  /** Confidential client whose client-credentials tokens are opaque (introspection). */
  referenceClient: Credentials;
  /** Cookie header of a signed-in browser (Gatehouse); empty for the bare engine. */
  browserCookie: string;
  cpuMs: () => number;
};

/** One round of a metric: Gatehouse and the bare engine measured back to back. */
export type OAuthRound = { gatehouse: Measurement; bare: Measurement };

export type OAuthRow = {
  metric: string;
  /** The rounds, in the order they ran (each side's order alternates from round to round). */
  rounds: OAuthRound[];
  /** Gatehouse req/s ≥ this × bare req/s. */
  ratioTarget?: number;
  /** Gatehouse req/s ≥ this, per core. */
  perCoreTarget?: number;
};

export type OAuthResult = { rows: OAuthRow[]; notes: string[] };

const SCOPE = OAUTH_BENCH.api.scope;
const CC_BODY = new URLSearchParams({ grant_type: 'client_credentials', scope: SCOPE }).toString();

function tokenEndpoint(side: OAuthSide, client: Credentials) {
  return { port: side.port, host: side.host, method: 'POST', path: OAUTH_BENCH.routes.token, headers: { authorization: basicAuth(client.id, client.secret) } };
}

type TokenAnswer = { access_token: string; refresh_token?: string; id_token?: string; token_type: string; scope?: string };

async function tokenRequest(side: OAuthSide, client: Credentials, form: Record<string, string>): Promise<TokenAnswer> {
  return (await expectStatus(200, { ...tokenEndpoint(side, client), form })).json<TokenAnswer>();
}

function decodeJwt(jwt: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = jwt.split('.');
  const part = (s: string | undefined) => JSON.parse(Buffer.from(s ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: part(h), payload: part(p) };
}

/** The access token the measured request would get: an ES256 JWT for the Management API. */
async function checkClientCredentials(side: OAuthSide): Promise<void> {
  const t = await tokenRequest(side, side.client, { grant_type: 'client_credentials', scope: SCOPE });
  const { header, payload } = decodeJwt(t.access_token);
  if (header.alg !== 'ES256' || payload.aud !== OAUTH_BENCH.api.audience) {
    throw new Error(
      `${side.label}: client credentials gave alg ${String(header.alg)}, aud ${JSON.stringify(payload.aud)}; expected ES256 for ${OAUTH_BENCH.api.audience}`,
    );
  }
}

/**
 * One authorization-code flow with PKCE in a signed-in browser: /connect/authorize, then the
 * engine's redirects (sign-in bridge, implicit consent) until one leaves for the redirect URI,
 * then the code redeemed. offline_access needs prompt=consent (OIDC Core 11). Answers the
 * refresh token.
 */
export async function codeFlowRefreshToken(side: OAuthSide): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(12).toString('base64url');
  const query = new URLSearchParams({
    client_id: side.client.id,
    response_type: 'code',
    redirect_uri: OAUTH_BENCH.redirectUri,
    scope: 'openid offline_access',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    prompt: 'consent',
  });
  let path = `${OAUTH_BENCH.routes.authorization}?${query.toString()}`;
  let jar = side.browserCookie;
  const hops: string[] = [];
  for (let i = 0; i < 12; i++) {
    hops.push(path.split('?')[0]);
    const r = await request({ port: side.port, host: side.host, path, cookie: jar || undefined, headers: { accept: 'text/html' } });
    jar = cookiesFrom(r, jar);
    const location = r.headers.location;
    if (r.status < 300 || r.status >= 400 || !location)
      throw new Error(`${side.label}: the code flow stopped at ${hops.join(' -> ')} with ${r.status}: ${r.text.slice(0, 300)}`);
    const next = new URL(location, `http://${side.host}`);
    if (next.href.startsWith(OAUTH_BENCH.redirectUri)) {
      const code = next.searchParams.get('code');
      if (!code || next.searchParams.get('state') !== state) throw new Error(`${side.label}: the code flow came back without a code: ${next.href}`);
      const t = await tokenRequest(side, side.client, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: OAUTH_BENCH.redirectUri,
        code_verifier: verifier,
      });
      if (!t.refresh_token) throw new Error(`${side.label}: no refresh token from the code exchange (scope ${t.scope ?? '?'})`);
      return t.refresh_token;
    }
    path = next.pathname + next.search;
  }
  throw new Error(`${side.label}: too many redirects: ${hops.join(' -> ')}`);
}

/**
 * Refresh tokens rotate: each exchange consumes the token it presents and answers its successor.
 * The pool starts with one token per finished code flow; a connection takes one for each request
 * and gives the answer's new token back, so a handful of flows per connection lasts any duration.
 * A token is never sent twice (that would revoke its family as reuse). Each run strands about one
 * token per connection (built for a request the run's end cut off), and a failed exchange ends its
 * chain; should the pool run dry, requests go out with an invalid token and show as non-2xx.
 */
class RefreshPool {
  private readonly tokens: string[];
  constructor(initial: string[]) {
    this.tokens = [...initial];
  }
  get size(): number {
    return this.tokens.length;
  }
  /** A token for a request outside the measured run (its successor must be given back). */
  take(): string {
    const token = this.tokens.pop();
    if (!token) throw new Error('the refresh-token pool is empty');
    return token;
  }
  give(token: string): void {
    this.tokens.unshift(token);
  }
  body = (): string => new URLSearchParams({ grant_type: 'refresh_token', refresh_token: this.tokens.pop() ?? 'refresh-pool-exhausted' }).toString();
  onResponse = (status: number, body: string): void => {
    if (status !== 200) return;
    const next = (JSON.parse(body) as TokenAnswer).refresh_token;
    if (next) this.tokens.unshift(next);
  };
}

async function refreshPool(side: OAuthSide, flows: number): Promise<RefreshPool> {
  const tokens = await mapLimit(
    Array.from({ length: flows }, (_, i) => i),
    4,
    () => codeFlowRefreshToken(side),
  );
  // One exchange up front proves rotation works and keeps the pool's size.
  const first = await tokenRequest(side, side.client, { grant_type: 'refresh_token', refresh_token: tokens[0] });
  if (!first.refresh_token || first.refresh_token === tokens[0]) throw new Error(`${side.label}: the refresh exchange did not rotate the token`);
  tokens[0] = first.refresh_token;
  return new RefreshPool(tokens);
}

/**
 * The introspection request for a client-credentials token, checked active once: `format` opaque is
 * a token of the reference client (AccessTokenType Reference), jwt one of the main client (an ES256
 * JWT for the management API); each client introspects its own.
 */
async function introspectionBody(side: OAuthSide, format: 'opaque' | 'jwt'): Promise<string> {
  const client = introspector(side, format);
  const t = await tokenRequest(side, client, { grant_type: 'client_credentials', scope: SCOPE });
  const isJwt = t.access_token.split('.').length === 3;
  if (isJwt !== (format === 'jwt'))
    throw new Error(`${side.label}: expected a${format === 'jwt' ? ' JWT' : 'n opaque'} access token, got ${t.access_token.slice(0, 20)}…`);
  const body = new URLSearchParams({ token: t.access_token, token_type_hint: 'access_token' }).toString();
  await checkActive(side, client, body);
  return body;
}

const introspector = (side: OAuthSide, format: 'opaque' | 'jwt') => (format === 'jwt' ? side.client : side.referenceClient);

async function checkActive(side: OAuthSide, client: Credentials, body: string): Promise<void> {
  const form = Object.fromEntries(new URLSearchParams(body));
  const r = await expectStatus(200, {
    port: side.port,
    host: side.host,
    method: 'POST',
    path: OAUTH_BENCH.routes.introspection,
    headers: { authorization: basicAuth(client.id, client.secret) },
    form,
  });
  const info = r.json<{ active: boolean; aud?: unknown; scope?: string }>();
  if (!info.active || info.aud !== OAUTH_BENCH.api.audience) throw new Error(`${side.label}: introspection answered ${r.text.slice(0, 200)}`);
}

/** The measured userinfo request answers the signed-in account, not an error. */
async function checkUserinfo(side: OAuthSide, accessToken: string): Promise<void> {
  const r = await expectStatus(200, {
    port: side.port,
    host: side.host,
    path: OAUTH_BENCH.routes.userinfo,
    headers: { authorization: `Bearer ${accessToken}` },
  });
  if (!r.json<{ sub?: string }>().sub) throw new Error(`${side.label}: userinfo answered ${r.text.slice(0, 200)}`);
}

const formHeaders = (side: OAuthSide, client: Credentials) => ({
  host: side.host,
  'content-type': 'application/x-www-form-urlencoded',
  authorization: basicAuth(client.id, client.secret),
});

export type OAuthRowOptions = Omit<MeasureOptions, 'cpuMs'> & { rounds: number; rows: ReadonlySet<OAuthRowName> };

export async function oauthRows(gatehouse: OAuthSide, bare: OAuthSide, o: OAuthRowOptions, progress: (m: string) => void): Promise<OAuthResult> {
  const sides = [gatehouse, bare] as const;
  const notes: string[] = [];
  // Each metric runs in `o.rounds` rounds, Gatehouse and the bare engine back to back, the order
  // alternating (G B, B G, G B): this shared machine's speed drifts by a third over minutes, and a
  // ratio taken within a round, where both sides met the same machine, is what the verdict uses
  // (the median of the rounds', report.ts), as for the login's ratio.
  const both = async (metric: string, one: (side: OAuthSide) => Promise<Measurement>): Promise<{ rounds: OAuthRound[] }> => {
    const rounds: OAuthRound[] = [];
    for (let round = 1; round <= o.rounds; round++) {
      const order = round % 2 === 1 ? sides : ([bare, gatehouse] as const);
      const results = new Map<OAuthSide, Measurement>();
      for (const side of order) {
        progress(`oauth: ${metric}, ${side.label}, round ${round} of ${o.rounds}`);
        results.set(side, await one(side));
      }
      rounds.push({ gatehouse: results.get(gatehouse)!, bare: results.get(bare)! });
    }
    return { rounds };
  };

  const rows: OAuthRow[] = [];
  for (const side of sides) await checkClientCredentials(side);
  if (o.rows.has('cc')) {
    const cc = await both('client credentials', (side) =>
      measure(
        {
          name: `${side.label}: client credentials`,
          port: side.port,
          path: OAUTH_BENCH.routes.token,
          method: 'POST',
          headers: formHeaders(side, side.client),
          body: CC_BODY,
        },
        { ...o, cpuMs: side.cpuMs },
      ),
    );
    rows.push({ metric: 'client credentials (ES256 JWT access token)', ...cc, ratioTarget: 0.7, perCoreTarget: 1000 });
  }

  // Refresh tokens for the refresh row, and the access token of one exchange for userinfo.
  const pools: RefreshPool[] = [];
  if (o.rows.has('refresh') || o.rows.has('userinfo')) {
    // Each run of the refresh row (a round's warm-up, then its measurement) strands about one token
    // per connection (the request its end cut off): the pool starts with enough for every round.
    const flows = o.rows.has('refresh') ? o.connections * (2 * o.rounds + 2) : 1;
    for (const side of sides) {
      progress(`oauth: ${flows} authorization-code flows for refresh tokens, ${side.label}`);
      const t = performance.now();
      pools.push(await refreshPool(side, flows));
      notes.push(
        `${side.label}: ${flows} authorization-code flows (authorize, sign-in/consent interaction, code exchange) for the refresh-token pool took ${((performance.now() - t) / 1000).toFixed(1)} s.`,
      );
    }
    if (o.rows.has('refresh')) {
      const refresh = await both('refresh-token exchange', (side) => {
        const pool = pools[side === gatehouse ? 0 : 1];
        return measureSplit(
          {
            name: `${side.label}: refresh token`,
            port: side.port,
            path: OAUTH_BENCH.routes.token,
            headers: formHeaders(side, side.client),
            body: pool.body,
            onResponse: pool.onResponse,
          },
          { ...o, cpuMs: side.cpuMs },
        );
      });
      rows.push({ metric: 'refresh-token exchange (rotation; opaque access token + RS256 ID token)', ...refresh, ratioTarget: 0.7 });
      notes.push(
        `Refresh-token pools left after the run: ${pools.map((p, i) => `${sides[i].label} ${p.size}`).join(', ')} of ${flows} (each run strands about one per connection).`,
      );
    }
  }

  if (o.rows.has('userinfo')) {
    // Userinfo with the opaque access token of a refresh exchange (scope openid offline_access).
    const accessTokens: string[] = [];
    for (const [i, side] of sides.entries()) {
      const t = await tokenRequest(side, side.client, { grant_type: 'refresh_token', refresh_token: pools[i].take() });
      if (t.refresh_token) pools[i].give(t.refresh_token);
      await checkUserinfo(side, t.access_token);
      accessTokens.push(t.access_token);
    }
    const userinfo = await both('userinfo', (side) =>
      measure(
        {
          name: `${side.label}: userinfo`,
          port: side.port,
          path: OAUTH_BENCH.routes.userinfo,
          method: 'GET',
          headers: { host: side.host, authorization: `Bearer ${accessTokens[side === gatehouse ? 0 : 1]}` },
        },
        { ...o, cpuMs: side.cpuMs },
      ),
    );
    rows.push({ metric: 'userinfo (opaque access token of a refresh exchange, scope openid)', ...userinfo, ratioTarget: 0.7 });
  }

  // oidc-provider refuses to introspect its own JWT access tokens (400 unsupported_token_type);
  // Gatehouse answers for them (lib/oidc/jwt-token-endpoints.ts). The JWT row therefore sets
  // Gatehouse's JWT introspection beside the bare engine's opaque one, the only kind it has.
  const bareFormat = (format: 'opaque' | 'jwt') => (format === 'jwt' ? 'opaque' : format);
  const introspection = async (format: 'opaque' | 'jwt') => {
    const formats = [format, bareFormat(format)] as const;
    const bodies = [await introspectionBody(gatehouse, formats[0]), await introspectionBody(bare, formats[1])];
    const measured = await both(`introspection (${format})`, (side) =>
      measure(
        {
          name: `${side.label}: introspection (${format})`,
          port: side.port,
          path: OAUTH_BENCH.routes.introspection,
          method: 'POST',
          headers: formHeaders(side, introspector(side, formats[side === gatehouse ? 0 : 1])),
          body: bodies[side === gatehouse ? 0 : 1],
        },
        { ...o, cpuMs: side.cpuMs },
      ),
    );
    // Introspection answers 200 with active=false for a token it cannot find, so 2xx alone does not
    // prove the measured answers were real ones: the token must still be active afterwards.
    for (const [i, side] of sides.entries()) await checkActive(side, introspector(side, formats[i]), bodies[i]);
    return measured;
  };
  if (o.rows.has('introspection-opaque')) {
    rows.push({ metric: 'introspection (opaque client-credentials token)', ...(await introspection('opaque')), ratioTarget: 0.7 });
  }
  if (o.rows.has('introspection-jwt')) {
    rows.push({
      metric: 'introspection (ES256 JWT client-credentials token; bare: opaque, it cannot introspect JWTs)',
      ...(await introspection('jwt')),
      ratioTarget: 0.7,
    });
  }

  return {
    rows,
    notes,
  };
}

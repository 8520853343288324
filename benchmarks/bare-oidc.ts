import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Provider, { errors, type Configuration, type JWK } from 'oidc-provider';
import { BARE, OAUTH_BENCH } from './oauth-common';

// The comparison engine of the `oauth` bench (issue 4 "Benchmark"): a bare oidc-provider, the same
// package and version Gatehouse runs, with its default in-memory adapter, one static confidential
// client and a configuration that does the same work per request as a Gatehouse realm's engine
// (lib/oidc/configuration.ts): ES256 JWT access tokens for the one API its scope names, RS256 ID
// tokens, rotating refresh tokens, opaque client-credentials tokens for the introspection client.
// It runs as a child process (`node --import tsx benchmarks/bare-oidc.ts`) so that it is measured
// exactly like the Gatehouse server: autocannon over loopback, CPU time from /proc.
//
// Sign-in is not what is compared, so the interaction endpoint signs a fixed account in and
// grants whatever is missing at once; it exists only to mint refresh tokens through the real
// authorization-code flow.

const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('PORT must be set');

function signingKey(kind: 'ec' | 'rsa', alg: 'ES256' | 'RS256'): JWK {
  const { privateKey } = kind === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk: JsonWebKey = privateKey.export({ format: 'jwk' });
  return { ...jwk, alg, use: 'sig', kid: `bare-${alg.toLowerCase()}` };
}

// Gatehouse realms hold one RSA and one EC key (lib/domain/signing-keys); the same pair here.
const keys = [signingKey('rsa', 'RS256'), signingKey('ec', 'ES256')];

const API = OAUTH_BENCH.api;

const configuration: Configuration = {
  jwks: { keys },
  cookies: { keys: ['bare-oidc-bench-cookie-key'] },
  routes: OAUTH_BENCH.routes,
  scopes: ['openid', 'offline_access', API.scope],
  claims: { openid: ['sub'] },
  clients: [
    {
      client_id: BARE.client.id,
      client_secret: BARE.client.secret,
      grant_types: ['client_credentials', 'authorization_code', 'refresh_token'],
      response_types: ['code'],
      redirect_uris: [OAUTH_BENCH.redirectUri],
      scope: ['openid', 'offline_access', API.scope].join(' '),
      token_endpoint_auth_method: 'client_secret_basic',
    },
    {
      client_id: BARE.referenceClient.id,
      client_secret: BARE.referenceClient.secret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: API.scope,
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  clientDefaults: {
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_basic',
    id_token_signed_response_alg: 'RS256',
  },
  responseTypes: ['code', 'none'],
  pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
  ttl: {
    AccessToken: 3600,
    AuthorizationCode: 60,
    ClientCredentials: 3600,
    IdToken: 3600,
    Interaction: 3600,
    RefreshToken: 30 * 24 * 3600,
    Session: 14 * 24 * 3600,
    Grant: 30 * 24 * 3600,
  },
  rotateRefreshToken: () => true,
  issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
  interactions: { url: (_ctx, interaction) => `${OAUTH_BENCH.interactionPrefix}${interaction.uid}` },
  findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
    userinfo: { enabled: true },
    resourceIndicators: {
      enabled: true,
      useGrantedResource: () => true,
      // As Gatehouse: a request naming only the API's scope is for that API.
      defaultResource: async (ctx, _client, oneOf) => {
        if (oneOf) return oneOf;
        const requested = String(ctx.oidc.params?.scope ?? '').split(' ');
        return requested.includes(API.scope) ? API.audience : undefined;
      },
      getResourceServerInfo: async (_ctx, indicator, client) => {
        if (indicator !== API.audience) throw new errors.InvalidTarget();
        const reference = client.clientId === BARE.referenceClient.id;
        return {
          audience: API.audience,
          scope: API.scope,
          accessTokenTTL: 3600,
          accessTokenFormat: reference ? 'opaque' : 'jwt',
          jwt: { sign: { alg: 'ES256' } },
        };
      },
    },
  },
};

const provider = new Provider(`http://${BARE.host}`, configuration);
const callback = provider.callback();

/** Signs the fixed account in, or grants every missing scope; the engine then redirects onwards. */
async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: OAUTH_BENCH.bareAccount } }, { mergeWithLastSubmission: false });
    return;
  }
  const accountId = details.session?.accountId;
  const clientId = String(details.params.client_id);
  const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

const server = createServer((req, res) => {
  if (req.url?.startsWith(OAUTH_BENCH.interactionPrefix)) {
    interaction(req, res).catch((e: unknown) => {
      res.statusCode = 500;
      res.end(e instanceof Error ? e.message : String(e));
    });
    return;
  }
  if (req.url === '/health') {
    res.end('ok');
    return;
  }
  void callback(req, res);
});

server.listen(port, '127.0.0.1', () => process.stdout.write(`bare oidc-provider listening on ${port}\n`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  // An orderly exit (not death by signal) lets --cpu-prof write its profile.
  process.on(signal, () => process.exit(0));
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { controlPlaneAdmin, realmAdminSession } from './admin';
import { expectStatus } from './http';
import { freePort, ROOT, startNodeProcess, startServer, type RunningServer } from './launch-server';
import { BARE, OAUTH_BENCH } from './oauth-common';
import type { BenchOptions } from './options';
import type { Report } from './report';
import { oauthRows, type Credentials, type OAuthSide } from './scenario-oauth';
import { progress } from './table';

// Issue 4: the OAuth engine through Gatehouse beside a bare oidc-provider. A SQLite Gatehouse
// server of its own (production build, default settings: the engine's endpoints have no rate
// limits of their own), one realm with its administrator, two clients made over the admin API;
// and the bare engine as a child process on another port.

const SLUG = 'bench-oauth';
const HOST = `${SLUG}.bench.test`;

async function makeClient(port: number, cookie: string, body: Record<string, unknown>): Promise<Credentials> {
  const r = await expectStatus(201, { port, host: HOST, method: 'POST', path: '/api/admin/oauth/clients', cookie, body });
  const c = r.json<{ ClientId: string; ClientSecret?: string }>();
  if (!c.ClientSecret) throw new Error(`client ${c.ClientId} came without a secret`);
  return { id: c.ClientId, secret: c.ClientSecret };
}

async function gatehouseSide(server: RunningServer): Promise<OAuthSide> {
  const control = await controlPlaneAdmin(server.env, server.port, 'bench-admin');
  await expectStatus(201, {
    port: server.port,
    method: 'POST',
    path: '/api/admin/realms',
    cookie: control,
    body: { Slug: SLUG, DisplayName: 'Bench OAuth', Domains: [HOST] },
  });
  const cookie = await realmAdminSession(server.port, control, SLUG, HOST);
  const client = await makeClient(server.port, cookie, {
    DisplayName: 'Bench client',
    ClientType: 'Confidential',
    ConsentType: 'Implicit',
    RedirectUris: [OAUTH_BENCH.redirectUri],
    GrantTypes: ['client_credentials', 'authorization_code', 'refresh_token'],
    Scopes: ['openid', 'offline_access', OAUTH_BENCH.api.scope],
  });
  const referenceClient = await makeClient(server.port, cookie, {
    DisplayName: 'Bench introspection client',
    ClientType: 'Confidential',
    AccessTokenType: 'Reference',
    GrantTypes: ['client_credentials'],
    Scopes: [OAUTH_BENCH.api.scope],
  });
  return { label: 'Gatehouse', port: server.port, host: HOST, client, referenceClient, browserCookie: cookie, cpuMs: server.cpuMs };
}

async function startBare(dir: string): Promise<RunningServer> {
  const port = await freePort();
  // NODE_ENV as the Gatehouse server's; tsx only transpiles the script at start-up.
  return startNodeProcess(['--import', 'tsx', join(ROOT, 'benchmarks', 'bare-oidc.ts')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port) },
    port,
    logFile: join(dir, 'bare-oidc.log'),
  });
}

export async function oauthPhase(tmp: string, o: BenchOptions, report: Report, track: (s: RunningServer) => void): Promise<void> {
  const dataDir = join(tmp, 'oauth');
  mkdirSync(dataDir, { recursive: true });
  progress('oauth: starting the Gatehouse server and the bare oidc-provider');
  const server = await startServer({ dataDir });
  track(server);
  const bare = await startBare(dataDir);
  track(bare);
  const gatehouse = await gatehouseSide(server);
  const bareSide: OAuthSide = {
    label: 'bare oidc-provider',
    port: bare.port,
    host: BARE.host,
    client: BARE.client,
    referenceClient: BARE.referenceClient,
    browserCookie: '',
    cpuMs: bare.cpuMs,
  };
  const result = await oauthRows(gatehouse, bareSide, { connections: o.connections, duration: o.duration, rounds: o.oauthRounds, rows: o.oauthRows }, progress);
  report.oauth.push(...result.rows);
  report.notes.push(
    `OAuth: Gatehouse (SQLite, one realm, clients made over the admin API) and a bare oidc-provider of the same version with its in-memory adapter (benchmarks/bare-oidc.ts, a child process), measured in turn (in each of ${o.oauthRounds} rounds, the order alternating) with the same requests, HTTP Basic client authentication, autocannon connections and duration. Client credentials ask for scope gatehouse.management and get an ES256 JWT for urn:gatehouse:management-api; refresh exchanges rotate the token (each token sent once, connections chaining the answers' new tokens); introspection reads one opaque client-credentials token of the reference client, then one ES256 JWT of the main client, each introspected by its own client (token_type_hint=access_token).`,
    'OAuth "per core": the server is one Node process with one event loop, so its req/s is what one core gives (the bench client and other processes share the 2 cores); "per CPU-s" = 1000 / server CPU ms per request, the rate one fully busy core would give, which other load moves much less.',
    ...result.notes,
  );
  await bare.stop();
  await server.stop();
}

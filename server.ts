import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import next from 'next';
import { settings } from './lib/config/env';
import { pingGlobalDb, closeGlobalDb } from './lib/db/global-db';
import { closeAllRealmDbs } from './lib/db/realm-pool';
import { AppError } from './lib/errors/app-error';
import { CLIENT_IP_HEADER, clientAddressOf, INTERNAL_HEADER_PREFIX } from './lib/web/client-ip';
import { assertWellFormedPath } from './lib/web/path-segment';
import { baseSecurityHeaders, fallbackCsp } from './lib/web/security-headers';
import { guardHtmlResponses } from './lib/runtime/html-guard';
import { logError, logInfo, logWarn } from './lib/log/logger';
import { resolveHost } from './lib/realm/resolve';
import { HEALTH_PATHS, isOAuthEnginePath, isRealtimePath } from './lib/runtime/engine-paths';
import { sendJson, sendProblem } from './lib/runtime/node-problem';
import { answerUnknownHost } from './lib/runtime/unknown-host';
import { usePrivateUmask } from './lib/runtime/private-files';
import { startPurgeSchedule } from './lib/startup/purge/purge-schedule';
import { startUp } from './lib/startup/start-up';
import { drainEvents } from './lib/events/bus';
import { dispatchToEngine } from './lib/oidc/dispatch';
import { registerOAuthEngine } from './lib/oidc/register';
import { handleHubRequest, handleHubUpgrade } from './lib/realtime/http';
import { catalogEntries } from './lib/api/catalog';
import { directRoutes, serveDirect } from './lib/http/direct-routes';
import { closeAllConnections, startRealtimeHub } from './lib/realtime/hub';
// @ts-expect-error a plain ESM script shared with the build, no type declarations
import { ensureNextTsconfig } from './scripts/next-tsconfig.mjs';
// @ts-expect-error a plain ESM script shared with the CLI's entry, no type declarations
import { requireGatehouseNode } from './scripts/require-node.mjs';

// Wiring only (docs/architecture.md): health, realm resolution from Host, then the OAuth engine, the
// real-time hub, the JSON API or Next. Domain logic lives in lib/.

async function main(): Promise<void> {
  requireGatehouseNode('the Gatehouse server');
  usePrivateUmask(); // databases, their -wal/-shm files and the outbox: 0600, directories 0700
  const s = settings();
  const dev = !s.production;
  await startUp({ seed: true, relay: true, mayCreateKey: true });
  registerOAuthEngine();
  await startRealtimeHub();
  if (s.testFailRealmCreateAt !== undefined) {
    // A fault-injection hook for the all-or-nothing test of realm creation, honoured in every mode so
    // the test runs the build that ships; it is never meant for a real deployment, hence the warning.
    logWarn('GATEHOUSE_TEST_FAIL_REALM_CREATE_AT is set: every realm creation fails on purpose', { step: s.testFailRealmCreateAt });
  }
  if (s.production && !s.smtpUrl) {
    // The development outbox logs each mail's links, and those carry sign-in and reset tokens.
    logWarn('SMTP_URL is not set: mail goes to the development outbox, whose log lines contain the links it mails');
  }

  const httpServer = createServer();
  // Idle keep-alive connections stay open 65 s, longer than the 60 s that load balancers commonly
  // keep theirs (Node's default is 5 s): otherwise a balancer or client reusing an idle connection
  // can meet the server closing it, and its request fails with a reset (docs/deployment.md).
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;
  if (dev) ensureNextTsconfig(process.cwd());
  // Next listens for 'upgrade' on the server it is given (or, failing that, on the first request's
  // server) and runs its router for every upgrade it hears, keeping each request and its per-request
  // caches for the socket's whole life: 20 KiB per hub connection. It is given an emitter of its own
  // instead, which hears only the upgrades that are not the hub's (its development HMR socket).
  const nextUpgrades = new EventEmitter();
  const app = next({ dev, dir: process.cwd(), hostname: '0.0.0.0', port: s.port, httpServer: nextUpgrades as unknown as Server });
  await app.prepare();
  const handleNext = app.getRequestHandler();
  // Security headers of every answer, and a CSP on any HTML that brings none (lib/web/security-headers.ts).
  const securityHeaders = baseSecurityHeaders(s.publicScheme);
  const htmlCsp = fallbackCsp(s.publicScheme);
  // The JSON API's endpoints, answered here through the same route wrapper as their app/api route
  // files, without Next's request pipeline (lib/http/direct-routes.ts). The SAML endpoints too: the
  // ACS takes large anonymous posts, and Next copied each body through a stream tee before our
  // wrapper saw it, about 10 ms of the event loop for a 680 KB post (issue 30 item 1).
  const isDirect = (path: string) => path.startsWith('/api/') || path.startsWith('/saml/');
  const apiRoutes = directRoutes(catalogEntries.map((entry) => entry.endpoint).filter((endpoint) => isDirect(endpoint.path)));

  async function onHubUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, pathname: string): Promise<void> {
    for (const name of Object.keys(req.headers)) if (name.startsWith(INTERNAL_HEADER_PREFIX)) delete req.headers[name];
    const resolution = await resolveHost(req.headers.host);
    if (resolution.kind !== 'realm') return void socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    await handleHubUpgrade(resolution.realm, pathname, req, socket, head);
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = (req.url ?? '/').split('?')[0];
    if (HEALTH_PATHS.has(pathname)) {
      if (pathname === '/health') return sendJson(res, 200, { status: 'ok' });
      const ready = await pingGlobalDb();
      return sendJson(res, ready ? 200 : 503, { status: ready ? 'ok' : 'unavailable' });
    }
    // Internal headers are ours alone: drop whatever a client sent, then record the peer address.
    for (const name of Object.keys(req.headers)) if (name.startsWith(INTERNAL_HEADER_PREFIX)) delete req.headers[name];
    req.headers[CLIENT_IP_HEADER] = clientAddressOf(req, s.trustedProxies);
    for (const [k, v] of Object.entries(securityHeaders)) res.setHeader(k, v);
    guardHtmlResponses(res, htmlCsp);
    assertWellFormedPath(pathname);

    const resolution = await resolveHost(req.headers.host);
    if (resolution.kind === 'invalid-host') {
      return sendProblem(
        res,
        new AppError('Validation.Failed', { detail: 'The Host header is missing or not a valid host name.', errors: { Host: ['Invalid host.'] } }),
      );
    }
    if (resolution.kind === 'unknown') return answerUnknownHost(req, res);
    if (isOAuthEnginePath(pathname)) return dispatchToEngine(resolution.realm, pathname, req, res);
    if (isRealtimePath(pathname)) return handleHubRequest(resolution.realm, pathname, req, res);
    const api = isDirect(pathname) ? apiRoutes.match(req.method ?? 'GET', pathname) : undefined;
    if (api) return serveDirect(api, req, res, `${s.publicScheme}://${req.headers.host}`);
    await handleNext(req, res);
  }

  httpServer.on('request', (req: IncomingMessage, res: ServerResponse) => {
    onRequest(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendProblem(res, e);
      else {
        logError('request failed after headers were sent', e);
        res.destroy();
      }
    });
  });

  // WebSocket upgrades of the hub are ours; any other goes to Next (its development HMR socket), or
  // is refused when Next has not asked for upgrades.
  httpServer.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (!isRealtimePath(pathname)) {
      if (!nextUpgrades.emit('upgrade', req, socket, head)) socket.destroy();
      return;
    }
    socket.on('error', () => socket.destroy());
    onHubUpgrade(req, socket, head, pathname).catch((e: unknown) => {
      logError('hub upgrade failed', e);
      socket.destroy();
    });
  });

  httpServer.listen(s.port, () =>
    logInfo('gatehouse listening', { port: s.port, mode: dev ? 'development' : 'production', storage: s.databaseUrl ? 'postgresql' : 'sqlite' }),
  );
  // Deletes expired one-time secrets and OAuth engine rows, in one instance at a time.
  const purge = startPurgeSchedule();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logInfo('shutting down', { signal });
    closeAllConnections();
    httpServer.close();
    await purge.stop().catch(() => undefined);
    await drainEvents().catch(() => undefined);
    await closeAllRealmDbs().catch(() => undefined);
    await closeGlobalDb().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((e: unknown) => {
  logError('gatehouse failed to start', e);
  process.exit(1);
});

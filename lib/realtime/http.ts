import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { AppError, notFound } from '../errors/app-error';
import { problemFromError, PROBLEM_CONTENT_TYPE } from '../errors/problem';
import type { RealmRecord } from '../realm/realm-record';
import { sendJson, sendProblem } from '../runtime/node-problem';
import { shared } from '../runtime/shared';
import { isSameOriginRequest } from '../web/csrf';
import type { HubConnection } from './connection';
import { LongPollingSink } from './long-polling';
import { MAX_PENDING_CHARS } from './protocol';
import { findConnection, openConnection } from './registry';
import { sessionOfCookie, type HubSession } from './session';

// The HTTP side of the hub `/signalr/ui` (docs/realtime.md): negotiate, then one transport per
// connection on `/signalr/ui?id=<connectionToken>`: a WebSocket upgrade, a Server-Sent Events stream
// (GET, Accept text/event-stream) or long polling (GET polls, POST sends, DELETE closes). Every
// request carries the session cookie of the realm the connection was negotiated in, and requests
// that could change state pass the same Origin check as the API's.

export const HUB_PATH = '/signalr/ui';
const NEGOTIATE_PATH = `${HUB_PATH}/negotiate`;

const TRANSPORTS = [
  { transport: 'WebSockets', transferFormats: ['Text'] },
  { transport: 'ServerSentEvents', transferFormats: ['Text'] },
  { transport: 'LongPolling', transferFormats: ['Text'] },
];

export function isHubPath(pathname: string): boolean {
  return pathname === HUB_PATH || pathname === NEGOTIATE_PATH;
}

/** A request to the hub over plain HTTP (negotiate, event stream, long polling). */
export async function handleHubRequest(realm: RealmRecord, pathname: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && !isSameOriginRequest((name) => headerOf(req, name))) return sendProblem(res, new AppError('Request.CsrfRejected'));
  const session = await sessionOfCookie(realm, req.headers.cookie);
  if (pathname === NEGOTIATE_PATH) {
    if (method !== 'POST') return sendProblem(res, notFound());
    if (!session) return sendProblem(res, new AppError('Auth.Unauthenticated'));
    return negotiate(realm, session, res);
  }
  if (pathname !== HUB_PATH) return sendProblem(res, notFound());
  // A connection the server ended (the session was revoked, say) still answers its client's last
  // poll and goodbye, without a session: 204 and 202 say "closed", and the token was its secret.
  const ended = endedConnection(realm, req);
  if (ended && method === 'GET' && !(req.headers.accept ?? '').includes('text/event-stream')) return poll(ended, res);
  if (ended && method === 'DELETE') {
    res.writeHead(202, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end();
    return;
  }
  if (!session) return sendProblem(res, new AppError('Auth.Unauthenticated'));
  const connection = connectionOf(realm, session, req);
  if (!connection) return sendProblem(res, new AppError('Request.NotFound', { detail: 'No connection with that id.' }));

  if (method === 'GET' && (req.headers.accept ?? '').includes('text/event-stream')) return openEventStream(connection, res);
  if (method === 'GET') return poll(connection, res);
  if (method === 'POST') return receivePosted(connection, req, res);
  if (method === 'DELETE') {
    connection.end();
    res.writeHead(202, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }).end();
    return;
  }
  sendProblem(res, notFound());
}

function negotiate(realm: RealmRecord, session: HubSession, res: ServerResponse): void {
  const connection = openConnection(realm, session);
  if (!connection) return sendProblem(res, new AppError('RateLimit.Exceeded', { detail: 'This session holds the most hub connections it may.' }));
  sendJson(res, 200, {
    negotiateVersion: 1,
    connectionId: connection.connectionId,
    connectionToken: connection.connectionToken,
    availableTransports: TRANSPORTS,
  });
}

function namedConnection(realm: RealmRecord, req: IncomingMessage): HubConnection | undefined {
  const token = new URL(req.url ?? '/', 'http://hub').searchParams.get('id');
  const connection = token ? findConnection(token) : undefined;
  return connection && connection.realm.id === realm.id ? connection : undefined;
}

/** The connection a transport request names, when it belongs to this realm and this very session. */
function connectionOf(realm: RealmRecord, session: HubSession, req: IncomingMessage): HubConnection | undefined {
  const connection = namedConnection(realm, req);
  return connection && connection.session.sessionId === session.sessionId ? connection : undefined;
}

/** The connection a request names when it has already ended. */
function endedConnection(realm: RealmRecord, req: IncomingMessage): HubConnection | undefined {
  const connection = namedConnection(realm, req);
  return connection?.closed ? connection : undefined;
}

function openEventStream(connection: HubConnection, res: ServerResponse): void {
  if (connection.transport || connection.closed)
    return sendProblem(res, new AppError('Request.NotFound', { detail: 'The connection already has a transport.' }));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
  res.write(':\n\n');
  connection.attach('ServerSentEvents', {
    // A hub message is one line of JSON (JSON.stringify escapes newlines), so one data line carries it.
    write: (text) => void res.write(`data: ${text}\n\n`),
    end: () => res.end(),
  });
  res.on('close', () => connection.transportLost());
}

/** The long-polling queue of each connection that polls. */
const pollingSinks = new WeakMap<HubConnection, LongPollingSink>();

function poll(connection: HubConnection, res: ServerResponse): void {
  if (!connection.transport) {
    // The first poll claims the connection and returns at once, empty (the client's start-up poll).
    const sink = new LongPollingSink(() => connection.close('The client stopped polling.', true));
    pollingSinks.set(connection, sink);
    connection.attach('LongPolling', sink);
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': 0 }).end();
    return;
  }
  if (connection.transport !== 'LongPolling') return sendProblem(res, new AppError('Request.NotFound', { detail: 'The connection uses another transport.' }));
  pollingSinks.get(connection)?.poll(res);
}

async function receivePosted(connection: HubConnection, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (connection.transport !== 'LongPolling' && connection.transport !== 'ServerSentEvents')
    return sendProblem(res, new AppError('Request.NotFound', { detail: 'The connection takes no posted messages.' }));
  const body = await readBody(req);
  if (body === null) return sendProblem(res, new AppError('Request.TooLarge'));
  connection.receive(body);
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': 0 }).end();
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PENDING_CHARS) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function wsServer(): WebSocketServer {
  return shared('realtime-hub.wss', () => new WebSocketServer({ noServer: true, maxPayload: MAX_PENDING_CHARS, perMessageDeflate: false }));
}

/** A WebSocket upgrade of `/signalr/ui?id=...`: checked like a write (Origin), then handed to `ws`. */
export async function handleHubUpgrade(realm: RealmRecord, pathname: string, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  if (pathname !== HUB_PATH) return refuseUpgrade(socket, notFound());
  if (!isSameOriginRequest((name) => headerOf(req, name))) return refuseUpgrade(socket, new AppError('Request.CsrfRejected'));
  const session = await sessionOfCookie(realm, req.headers.cookie);
  if (!session) return refuseUpgrade(socket, new AppError('Auth.Unauthenticated'));
  const connection = connectionOf(realm, session, req);
  if (!connection || connection.transport || connection.closed)
    return refuseUpgrade(socket, new AppError('Request.NotFound', { detail: 'No connection with that id.' }));
  wsServer().handleUpgrade(req, socket, head, (ws) => bindWebSocket(connection, ws));
}

/**
 * The connection's WebSocket transport. Its listeners live as long as the socket, so they are made
 * here, out of reach of the upgrade request (a closure beside the request would keep it alive).
 */
function bindWebSocket(connection: HubConnection, ws: WebSocket): void {
  connection.attach('WebSockets', {
    write: (text) => ws.send(text),
    end: () => ws.close(1000),
  });
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) connection.close('Binary messages are not spoken here.', false);
    else connection.receive(data.toString('utf8'));
  });
  ws.on('close', () => connection.transportLost());
  ws.on('error', () => connection.transportLost());
}

/** Answers a refused upgrade with a problem on the raw socket, then closes it. */
function refuseUpgrade(socket: Duplex, error: unknown): void {
  const p = problemFromError(error, 'server');
  const body = JSON.stringify(p.body);
  socket.end(
    `HTTP/1.1 ${p.status} ${p.status === 401 ? 'Unauthorized' : p.status === 403 ? 'Forbidden' : 'Not Found'}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

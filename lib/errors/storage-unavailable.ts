import { logError } from '../log/logger';

// A database that cannot be reached (PostgreSQL restarting, a network cut, a pool that timed out)
// is not a bug of the request: it answers 503 with Retry-After, and the outage is logged once every
// LOG_EVERY_MS instead of once per request (docs/deployment.md "When PostgreSQL is down"). The
// errors come from Prisma (P1xxx codes), the pg driver (SQLSTATE classes 08 and 57P) or the socket.

const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const MESSAGES = [
  /can't reach database server/i,
  /connection terminated/i,
  /terminating connection due to administrator command/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /timed out fetching a new connection/i,
];
const LOG_EVERY_MS = 10_000;
/** What a 503 for an unreachable database asks the client to wait, on the API and on the OAuth engine. */
export const STORAGE_RETRY_AFTER_SECONDS = 5;

type ErrorLike = { code?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };

/** Whether `error` (or an error it wraps) says the database cannot be reached right now. */
export function isStorageUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const err = e as ErrorLike & { originalCode?: unknown; kind?: unknown };
    const code = typeof err.code === 'string' ? err.code : undefined;
    if (code && (PRISMA_CODES.has(code) || SQLSTATES.has(code) || SOCKET_CODES.has(code))) return true;
    if (typeof err.originalCode === 'string' && SQLSTATES.has(err.originalCode)) return true;
    if (err.kind === 'DatabaseNotReachable' || err.kind === 'ConnectionClosed' || err.kind === 'SocketTimeout') return true;
    if (typeof err.message === 'string' && MESSAGES.some((m) => m.test(err.message as string))) return true;
    queue.push(err.cause, err.meta?.driverAdapterError);
  }
  return false;
}

let lastLoggedAt = 0;

/** Logs an outage at most once every ten seconds, whatever the number of requests it fails. */
export function logStorageUnavailable(error: unknown, now = Date.now()): void {
  if (now - lastLoggedAt < LOG_EVERY_MS) return;
  lastLoggedAt = now;
  logError('database unavailable: requests answer 503 until it returns', error);
}

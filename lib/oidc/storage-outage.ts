import type Provider from 'oidc-provider';
import { errorCatalog } from '../errors/catalog';
import { isStorageUnavailable, logStorageUnavailable, STORAGE_RETRY_AFTER_SECONDS } from '../errors/storage-unavailable';
import { logError } from '../log/logger';

// The engine answers any failure it did not expect with 500 `server_error`. A database that cannot be
// reached is not that: its requests answer 503 `temporarily_unavailable` (the OAuth error body a
// client parses, RFC 6749 section 4.1.2.1's code) with Retry-After, and the outage is logged once
// every few seconds rather than per request (docs/deployment.md "When PostgreSQL is down").

type EngineCtx = { status?: number; body?: unknown; set?(name: string, value: string): void };
type FailedWriteCtx = EngineCtx & { remove(name: string): void; oidc?: { provider: { emit(event: string, ...args: unknown[]): boolean } } };

const outages = new WeakSet<object>();

/** After the engine answered (engine-hooks.ts, last): rewrites the answer of a request that failed on the database. */
export function answerStorageOutage(ctx: EngineCtx): void {
  if (!outages.has(ctx) || ctx.status !== 500) return;
  ctx.status = 503;
  ctx.set?.('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
  ctx.body = { error: 'temporarily_unavailable', error_description: errorCatalog['Server.Unavailable'].title };
}

/** Marks a request whose server error is an unreachable database (logged once in a while); logs any other. */
function noteServerError(ctx: object, error: unknown, logOther: (error: unknown) => void): void {
  if (!isStorageUnavailable(error)) return logOther(error);
  outages.add(ctx);
  logStorageUnavailable(error);
}

/** Marks the requests whose server error is an unreachable database; logs the other ones as before. */
export function watchStorageOutages(provider: Provider, logOther: (error: unknown) => void): void {
  provider.on('server_error', (ctx: object, error: unknown) => noteServerError(ctx, error, logOther));
}

/**
 * A request whose engine writes did not all commit (held-writes.ts), after the engine answered as if
 * they had: the answer becomes the engine's own for a failure it did not expect, 500 `server_error`
 * (503 when the database cannot be reached, by `answerStorageOutage` after it), with no redirect left
 * to carry a code or token that was never saved; the error goes where the engine's own go.
 */
export function answerFailedWrite(ctx: FailedWriteCtx, error: unknown): void {
  // A read of the request waited for the write and failed with it: the engine already answered and reported that.
  if (ctx.status !== undefined && ctx.status >= 500) return;
  ctx.remove('Location');
  ctx.status = 500;
  ctx.body = { error: 'server_error', error_description: errorCatalog['Server.Error'].title };
  // Through the engine's own event where there is a route (the realm's log fields come with it).
  if (ctx.oidc) ctx.oidc.provider.emit('server_error', ctx, error);
  else noteServerError(ctx, error, (other) => logError('oauth engine error: a write did not commit', other));
}

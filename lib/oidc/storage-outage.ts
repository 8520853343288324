import type Provider from 'oidc-provider';
import { errorCatalog } from '../errors/catalog';
import { isStorageUnavailable, logStorageUnavailable, STORAGE_RETRY_AFTER_SECONDS } from '../errors/storage-unavailable';

// The engine answers any failure it did not expect with 500 `server_error`. A database that cannot be
// reached is not that: its requests answer 503 `temporarily_unavailable` (the OAuth error body a
// client parses, RFC 6749 section 4.1.2.1's code) with Retry-After, and the outage is logged once
// every few seconds rather than per request (docs/deployment.md "When PostgreSQL is down").

type EngineCtx = { status?: number; body?: unknown; set?(name: string, value: string): void };

const outages = new WeakSet<object>();

/** After the engine answered (engine-hooks.ts, last): rewrites the answer of a request that failed on the database. */
export function answerStorageOutage(ctx: EngineCtx): void {
  if (!outages.has(ctx) || ctx.status !== 500) return;
  ctx.status = 503;
  ctx.set?.('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS));
  ctx.body = { error: 'temporarily_unavailable', error_description: errorCatalog['Server.Unavailable'].title };
}

/** Marks the requests whose server error is an unreachable database; logs the other ones as before. */
export function watchStorageOutages(provider: Provider, logOther: (error: unknown) => void): void {
  provider.on('server_error', (ctx: object, error: unknown) => {
    if (!isStorageUnavailable(error)) return logOther(error);
    outages.add(ctx);
    logStorageUnavailable(error);
  });
}

import type { KoaContextWithOIDC } from 'oidc-provider';
import type { RealmRecord } from '../realm/realm-record';
import { appFeatureGates } from './app-gates';
import { hideStoredSecretDigest } from './internals';
import { structuredTokenAnswer, STRUCTURED_TOKEN_ANSWER } from './jwt-token-endpoints';
import { endBrowserSessionOnLogout } from './session-bridge';
import { holdAnswerFor } from './held-writes';
import { answerFailedWrite, answerStorageOutage } from './storage-outage';

// What Gatehouse does around every engine request, as one middleware of the engine's. Each was a
// middleware of its own, and every layer cost every request its promises whether it had work or
// not (issue 14: a userinfo answer made 51 promises more than the bare engine's). Most of them act
// on one route's answer, so they are hooks run after the engine, each returning at once when the
// route is not theirs; only the App feature gates act before the engine, on their own paths. The
// answer to a JWT at introspection and revocation is handed to the engine, which calls it where it
// would refuse the token (jwt-token-endpoints.ts).

/** The engine middleware of a realm's provider (provider-cache.ts). */
export function engineHooks(realm: RealmRecord): (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void> {
  const gates = appFeatureGates(realm);
  const answerStructuredToken = structuredTokenAnswer(realm);
  const browserLogout = endBrowserSessionOnLogout(realm);
  return async (ctx, next) => {
    (ctx.state as Record<symbol, unknown>)[STRUCTURED_TOKEN_ANSWER] = answerStructuredToken;
    // The engine's writes commit together, before the answer leaves; one that did not makes the answer an error.
    const writes = await holdAnswerFor(() => gates(ctx, next));
    if ('failed' in writes) answerFailedWrite(ctx, writes.failed);
    // Innermost first, as the layers ran: what the answer shows, then the logout's side effect, and
    // last the storage outage, which rewrites whatever failed on the database. A hook with nothing to
    // do answers undefined, and is not awaited (an await is a promise).
    hideStoredSecretDigest(ctx);
    const loggingOut = browserLogout(ctx);
    if (loggingOut) await loggingOut;
    answerStorageOutage(ctx);
  };
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { shared } from '../runtime/shared';

// The engine's writes of one request, committed before its answer leaves rather than one by one
// (issue 14: a refresh exchange writes three times, and each write waited for its own commit, so
// its three commits were shared with few other requests' writes). Inside `holdAnswerFor`, a write
// the storage queues in order on the realm's one connection (SQLite's group commit) is handed here
// and the engine goes on at once; the middleware that called `holdAnswerFor` then waits for every
// one of them to commit before the engine's answer is sent, and answers an error instead when one
// failed. So nobody outside the request learns of a write before it committed, as before, while a
// request's writes, and those of every request of the same poll, share one commit, which runs
// while the engine signs its tokens.
// - The request itself reads what it wrote: the adapter waits for the request's own pending writes
//   before any read (`ownWritesCommitted`).
// - Outside a hold (the sign-in bridge, admin work, jobs) every write is awaited where it is made.

type Held = { pending: Promise<void>[]; failed?: { error: unknown } };

const storage = () => shared('oidc.held-writes', () => new AsyncLocalStorage<Held>());

/**
 * Runs `run` (the engine serving one request) with its writes held; once all settled, answers
 * `{ failed }` with the first that did not commit, or `{}`. Called where the answer can still change.
 */
export async function holdAnswerFor(run: () => Promise<void>): Promise<{ failed?: unknown }> {
  const held: Held = { pending: [] };
  let thrown: { error: unknown } | undefined;
  try {
    await storage().run(held, run);
  } catch (error) {
    thrown = { error };
  }
  // Also when the engine threw: its error answer must not leave before its writes settled either.
  const settled = await settle(held);
  if (thrown) throw thrown.error;
  return settled;
}

async function settle(held: Held): Promise<{ failed?: unknown }> {
  // A write made while waiting (none is expected: the engine is done) is waited for as well.
  while (held.pending.length) await Promise.allSettled(held.pending.splice(0));
  return held.failed ? { failed: held.failed.error } : {};
}

/**
 * Hands a queued write's commit to the request's hold: true when there is one (the caller goes on
 * without waiting), false outside a hold (the caller waits for `committed` itself).
 */
export function holdCommit(committed: Promise<void>): boolean {
  const held = storage().getStore();
  if (!held) return false;
  // Observed at once: a failure is the answer's to report, not an unhandled rejection meanwhile.
  committed.catch((error: unknown) => void (held.failed ??= { error }));
  held.pending.push(committed);
  return true;
}

/** Before a read inside a hold: settles once the request's own writes so far committed (rejects if one failed); undefined when none is pending. */
export function ownWritesCommitted(): Promise<void> | undefined {
  const held = storage().getStore();
  if (!held?.pending.length) return undefined;
  // Waited for here, and not again: a failure among them is already the answer's (holdCommit).
  return Promise.all(held.pending.splice(0)).then(() => undefined);
}

// A point every caller of one turn of the event loop waits for together: a promise settled by one
// setImmediate, so it settles after the poll phase in which those callers ran has finished reading
// the sockets it found ready. Work started after it knows that every caller of that turn had arrived.
// dispatch.ts uses it so that the requests one poll brought in share one cross-connection check of
// the SQLite read cache instead of making one each (lib/db/sqlite-read-cache.ts).

let pending: Promise<void> | undefined;

/** Settles in the next check phase, for this caller and every other caller until then. */
export function turnBarrier(): Promise<void> {
  pending ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      pending = undefined;
      resolve();
    }),
  );
  return pending;
}

import type BetterSqlite3 from 'better-sqlite3';
import { insideTransactionCall, runWhenFree } from './sqlite-transaction-gate';

// Group commit for the OAuth engine's writes on a realm's SQLite connection (issue 14: a refresh
// exchange makes three or four writes). An autocommitted write pays a whole commit: its WAL frames
// (the table's page and a page of each of its indexes) and the WAL index update, about 60 us here
// (docs/environment.md), where the statement itself costs a few. So the writes a connection is sent
// within one turn of the event loop, by every request, are queued and run in the next turn as one
// transaction, and each caller is answered once the transaction committed: as durable as before,
// for fewer commits.
// - A write that fails (a constraint, say) rejects only its caller and leaves nothing; the rest
//   commit (the group then runs again with a savepoint around each write, `commitAll`). A failure
//   that ends the whole transaction, or a commit that fails, rejects every caller of the group:
//   none of their writes happened.
// - Writes run in the order they are made: a caller may make its next write before the last one
//   committed (lib/oidc/held-writes.ts). A write made while another request's transaction holds the
//   connection is queued all the same; the group waits for that transaction (the gate).
// - A write made from inside a `$transaction` call (sqlite-transaction-gate.ts) is not queued: it
//   runs as it did, through the gate, so a transaction's own writes are never deferred past it.
// - Reads are not queued. A read made while a write is queued does not see that write; the write's
//   caller has not been answered yet, so no one has been told it happened.

type Queued = { work: () => void; resolve: () => void; reject: (error: unknown) => void };

const queues = new WeakMap<BetterSqlite3.Database, Queued[]>();

/** Runs `work` (one synchronous write) in the connection's next group commit; settles once it is committed. */
export function commitGrouped(db: BetterSqlite3.Database, work: () => void): Promise<void> {
  if (insideTransactionCall()) return runWhenFree(db, work);
  return new Promise<void>((resolve, reject) => {
    let queue = queues.get(db);
    if (!queue) {
      queues.set(db, (queue = []));
      setImmediate(() => flush(db));
    }
    queue.push({ work, resolve, reject });
  });
}

function flush(db: BetterSqlite3.Database): void {
  const queue = queues.get(db) ?? [];
  queues.delete(db);
  const failures = new Map<Queued, unknown>();
  runWhenFree(db, () => commitAll(db, queue, failures)).then(
    () => {
      for (const q of queue) {
        if (failures.has(q)) q.reject(failures.get(q));
        else q.resolve();
      }
    },
    (error: unknown) => {
      for (const q of queue) q.reject(failures.get(q) ?? error);
    },
  );
}

function commitAll(db: BetterSqlite3.Database, queue: Queued[], failures: Map<Queued, unknown>): void {
  // Writes seldom fail: the group first runs as one plain transaction, without a savepoint around
  // each write (two statements and a wrapper call fewer per write). Should any write fail, that
  // transaction is rolled back (better-sqlite3 does it as the error leaves), and the group runs
  // again with a savepoint each, so that only the failing write is refused. Each write is its
  // statements alone, so running it again after the rollback does what running it once would.
  try {
    db.transaction(() => {
      for (const q of queue) q.work();
    })();
    return;
  } catch {
    // Run again below, one savepoint per write.
  }
  // better-sqlite3 runs a transaction function called inside another as a savepoint.
  const one = db.transaction((q: Queued) => q.work());
  db.transaction(() => {
    for (const q of queue) {
      try {
        one(q);
      } catch (error) {
        failures.set(q, error);
        // Some errors (a full disk, an I/O error) end the whole transaction: then nothing of the group stands.
        if (!db.inTransaction) throw error;
      }
    }
  })();
}

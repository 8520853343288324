import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import { shared } from '../runtime/shared';

// A realm's SQLite database is one connection that every request shares. Prisma's adapter gives an
// interactive transaction the connection from its BEGIN to its COMMIT or ROLLBACK and makes other
// transactions wait (its own queries from other requests were not seen inside one either: the
// test). Gatehouse's prepared statements (driver-handle.ts) went to the connection directly, and
// one sent by another request while a transaction was open ran inside it: its write was undone
// when that transaction rolled back, after the request had reported it done, and its read saw rows
// that might never commit (a role granted by a change that then failed).
// The gate makes such a statement wait until the transaction ends.
//
// The transaction's own callback may still reach the connection through the outer client (code that
// was handed `db` rather than `tx`): it would wait for itself forever. So `$transaction` runs its
// call in an async context of its own, and a statement made from that context goes through.

type Hold = { owner: object; released: Promise<void> };
type Gate = { owners: AsyncLocalStorage<object>; holds: WeakMap<BetterSqlite3.Database, Hold>; marked: WeakSet<object> };

// On globalThis: server.ts and Next's bundles share the connections (lib/runtime/shared.ts).
const gate = () => shared<Gate>('db.sqlite-transaction-gate', () => ({ owners: new AsyncLocalStorage(), holds: new WeakMap(), marked: new WeakSet() }));

type TransactionCaller = { $transaction: (...args: never[]) => unknown };

/** Runs each `$transaction` call of a Prisma client in its own context, so its callback's statements are known as its own. */
export function markTransactionCallers(client: object): void {
  // Once per client: should Prisma connect its adapter again (a query after $disconnect), the wrappers must not stack.
  if (gate().marked.has(client)) return;
  gate().marked.add(client);
  const c = client as TransactionCaller;
  const original = c.$transaction.bind(c) as (...args: unknown[]) => unknown;
  c.$transaction = (...args: unknown[]) => gate().owners.run({}, () => original(...args));
}

/** Whether the caller runs inside a `$transaction` call (its callback, or Prisma's work for it). */
export function insideTransactionCall(): boolean {
  return gate().owners.getStore() !== undefined;
}

type Transaction = { commit(): Promise<void>; rollback(): Promise<void> };
type TransactionAdapter = { startTransaction?: (...args: never[]) => Promise<Transaction> };

/** Records when an adapter's transaction holds its connection: from BEGIN until it is committed or rolled back. */
export function trackTransactions(adapter: TransactionAdapter, db: BetterSqlite3.Database): void {
  if (!adapter.startTransaction) return;
  const start = adapter.startTransaction.bind(adapter) as (...args: unknown[]) => Promise<Transaction>;
  adapter.startTransaction = async (...args: unknown[]) => {
    const tx = await start(...args);
    let release!: () => void;
    // A transaction Prisma opens for itself (not through $transaction) has no callback of ours: nobody is its owner.
    const hold: Hold = { owner: gate().owners.getStore() ?? {}, released: new Promise<void>((r) => (release = r)) };
    gate().holds.set(db, hold);
    const end = () => {
      if (gate().holds.get(db) === hold) gate().holds.delete(db);
      release();
    };
    const commit = tx.commit.bind(tx);
    const rollback = tx.rollback.bind(tx);
    tx.commit = () => commit().finally(end);
    tx.rollback = () => rollback().finally(end);
    return tx;
  };
}

// BEGIN runs inside the adapter's startTransaction, a turn or more before its hold is recorded
// below; better-sqlite3's `inTransaction` tells the truth in between. A Gatehouse transaction
// (`db.transaction(...)()`, synchronous) is never seen open from outside it.
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Undefined when a statement may use the connection now; otherwise a promise settled when it may be worth looking again. */
function busy(db: BetterSqlite3.Database): Promise<void> | undefined {
  if (!db.inTransaction) return undefined;
  const hold = gate().holds.get(db);
  if (hold && gate().owners.getStore() === hold.owner) return undefined;
  return hold ? hold.released : nextTurn();
}

/**
 * Runs `work` (synchronous statements) on a SQLite connection once no other request's transaction
 * holds it: the check and the work happen in the same turn, so no transaction can begin between.
 */
export function runWhenFree<T>(db: BetterSqlite3.Database, work: () => T): Promise<T> {
  const wait = busy(db);
  if (wait) return wait.then(() => runWhenFree(db, work));
  try {
    return Promise.resolve(work());
  } catch (e) {
    return Promise.reject(e);
  }
}

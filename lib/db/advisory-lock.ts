import { dialect, globalPostgresUrl } from './dialect';
import { withPgClient } from './migrate';
import type { RealmTx } from './types';

// A lock that instances sharing one PostgreSQL server take on the global database, held by a
// connection of its own: a session-level advisory lock, released when `work` ends or, should the
// process die, when its connection closes.

/** Runs `work` when no other session holds the lock `name`; otherwise returns `{ ran: false }` at once. */
export async function withGlobalAdvisoryLock<T>(name: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  return withPgClient(globalPostgresUrl(), async (client) => {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [name]);
    if (!rows[0]?.locked) return { ran: false };
    try {
      return { ran: true, value: await work() };
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).catch(() => {});
    }
  });
}

/**
 * Inside a realm transaction: waits for, then holds until the transaction ends, the lock `name`
 * (a count-then-insert at a limit stays exact when two requests race). SQLite runs one write
 * transaction at a time per database, so there it is not needed.
 */
export async function lockForTransaction(tx: Pick<RealmTx, '$queryRaw'>, name: string): Promise<void> {
  if (dialect() !== 'postgresql') return;
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext(${name}))`;
}

import { settings } from '../../config/env';
import { withGlobalAdvisoryLock } from '../../db/advisory-lock';
import { dialect } from '../../db/dialect';
import { withRedisLease } from '../../runtime/redis-lease';

// The purge runs in one instance at a time: instances sharing a PostgreSQL server take an advisory
// lock on the global database; instances sharing Redis (without PostgreSQL) a lease there. A
// single SQLite instance needs neither (its schedule never overlaps its own passes).
const LOCK_NAME = 'gatehouse.purge-expired';
// Longer than a pass over a large fleet should take; a pass that outlives it only repeats deletes.
const LEASE_MS = 15 * 60_000;

export type LockedRun<T> = { ran: true; value: T } | { ran: false };

/** Runs `work` unless another instance is running it; `{ ran: false }` then. */
export function withPurgeLock<T>(work: () => Promise<T>): Promise<LockedRun<T>> {
  if (dialect() === 'postgresql') return withGlobalAdvisoryLock(LOCK_NAME, work);
  if (settings().redisUrl) return withRedisLease(LOCK_NAME, LEASE_MS, work);
  return work().then((value) => ({ ran: true, value }));
}

// Deleting many rows a bounded batch at a time (the purge job): a short transaction per batch keeps
// the database free for requests (a SQLite writer holds the one write lock while it deletes), and a
// cap per call bounds how long one table of one realm can hold a pass up. What is left is deleted
// by the next pass.

export type BatchLimits = {
  /** Rows per delete statement. */
  batchSize: number;
  /** Statements per call at most. */
  maxBatches: number;
};

export const DEFAULT_BATCH_LIMITS: BatchLimits = { batchSize: 500, maxBatches: 200 };

/**
 * Finds up to `batchSize` keys with `find`, deletes them with `remove` (which must re-check the
 * condition, so a row changed meanwhile stays), and repeats until a batch comes back short, the
 * cap is reached, or `stopped()` says so (shutdown). Returns how many rows were deleted.
 */
export async function deleteInBatches<K>(
  limits: BatchLimits,
  find: (take: number) => Promise<K[]>,
  remove: (keys: K[]) => Promise<number>,
  stopped: () => boolean = () => false,
): Promise<number> {
  let deleted = 0;
  for (let batch = 0; batch < limits.maxBatches && !stopped(); batch++) {
    const keys = await find(limits.batchSize);
    if (keys.length > 0) deleted += await remove(keys);
    if (keys.length < limits.batchSize) break;
  }
  return deleted;
}

// At most `limit` calls of a kind at once; the rest wait their turn, first come first served.
// Used where work runs on libuv's thread pool (4 threads by default, shared with file system, DNS
// and zlib work): a burst of argon2id verifications must not occupy every thread and every core.

export type ConcurrencyGate = <T>(work: () => Promise<T>) => Promise<T>;

export function concurrencyGate(limit: number): ConcurrencyGate {
  if (!Number.isInteger(limit) || limit < 1) throw new Error('a concurrency gate needs a limit of at least 1');
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return async (work) => {
    if (running < limit) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve)); // the releaser hands its slot over
    try {
      return await work();
    } finally {
      release();
    }
  };
}

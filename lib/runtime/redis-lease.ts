import { randomUUID } from 'node:crypto';
import { redisClient } from './redis';

// A lease that instances sharing one Redis take so a job runs in one of them at a time. It expires
// by itself after `ttlMs`, so a crashed holder blocks nobody for long; a job that outlives its
// lease may meet a second runner, so only work that is safe to repeat should rely on it.

// Deletes the key only while it still holds this holder's token (not a lease taken over since).
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** Runs `work` when this instance gets the lease `name`; otherwise returns `{ ran: false }` at once. */
export async function withRedisLease<T>(name: string, ttlMs: number, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  const redis = redisClient();
  const key = `gatehouse:lease:${name}`;
  const token = randomUUID();
  if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return { ran: false };
  try {
    return { ran: true, value: await work() };
  } finally {
    await redis.eval(RELEASE, 1, key, token).catch(() => {});
  }
}

import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as FirstSighting from './first-sighting';
import type * as Redis from './redis';
import { dropShared } from './shared';

// The one-time memory of DPoP proof ids (first-sighting.ts): in this instance's memory, bounded and
// failing closed; with REDIS_URL in Redis too, so another instance (here: this one with its memory
// dropped) refuses a value the first accepted.

const REDIS_URL = process.env.GATEHOUSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisUp = await new Promise<boolean>((resolve) => {
  const u = new URL(REDIS_URL);
  const socket = connect({ host: u.hostname, port: Number(u.port || 6379) });
  socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
  socket.on('connect', () => (socket.destroy(), resolve(true)));
  socket.on('error', () => resolve(false));
});

const saved = { ...process.env };
const fresh = async (): Promise<typeof FirstSighting> => {
  vi.resetModules(); // lib/config/env.ts reads this block's environment
  dropShared('runtime.first-sighting');
  return import('./first-sighting');
};

describe('firstSighting in memory', () => {
  let m: typeof FirstSighting;
  beforeAll(async () => {
    delete process.env.REDIS_URL;
    m = await fresh();
  });
  afterAll(() => {
    process.env = saved;
    dropShared('runtime.first-sighting');
  });

  it('is true once per value and namespace, until the value expires', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const v = randomUUID();
      expect(await m.firstSighting('a', v, 5_000)).toBe(true);
      expect(await m.firstSighting('a', v, 5_000)).toBe(false);
      expect(await m.firstSighting('b', v, 5_000)).toBe(true);
      vi.setSystemTime(Date.now() + 4_999);
      expect(await m.firstSighting('a', v, 5_000)).toBe(false);
      vi.setSystemTime(Date.now() + 2);
      expect(await m.firstSighting('a', v, 5_000)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is bounded, and when full of live values refuses new ones rather than forget one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (let i = 0; i < m.MAX_ENTRIES; i++) await m.firstSighting('full', String(i), 60_000);
      expect(await m.firstSighting('full', 'one more', 60_000)).toBe(false);
      expect(await m.firstSighting('full', '0', 60_000)).toBe(false);
      // Expired values make room again.
      vi.setSystemTime(Date.now() + 61_000);
      expect(await m.firstSighting('full', 'one more', 60_000)).toBe(true);
      expect(await m.firstSighting('full', 'one more', 60_000)).toBe(false);
      // Windows differ (a proof's runs from its own iat): an entry that expires before older ones frees its place.
      dropShared('runtime.first-sighting');
      for (let i = 0; i < m.MAX_ENTRIES - 1; i++) await m.firstSighting('long', String(i), 60_000);
      expect(await m.firstSighting('short', 'x', 1_000)).toBe(true);
      expect(await m.firstSighting('next', 'y', 60_000)).toBe(false);
      vi.setSystemTime(Date.now() + 2_000);
      expect(await m.firstSighting('next', 'y', 60_000)).toBe(true);
      expect(await m.firstSighting('next', 'z', 60_000)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  }, 60_000);
});

describe.runIf(redisUp)('firstSighting with Redis', () => {
  let m: typeof FirstSighting;
  let redis: typeof Redis;
  beforeAll(async () => {
    process.env.REDIS_URL = REDIS_URL;
    dropShared('redis');
    m = await fresh();
    redis = await import('./redis');
    expect(await redis.connectRedis()).toBe(true);
  });
  afterAll(async () => {
    await redis.redisClient().quit();
    dropShared('redis');
    dropShared('runtime.first-sighting');
    process.env = saved;
  });

  it('a value another instance took is refused here, and expires in Redis with its window', async () => {
    const v = randomUUID();
    expect(await m.firstSighting('dpop-test', v, 5_000)).toBe(true);
    dropShared('runtime.first-sighting'); // another instance: its own (empty) memory, the same Redis
    expect(await m.firstSighting('dpop-test', v, 5_000)).toBe(false);
    const keys = await redis.redisClient().keys('gh-once:*');
    const ttls = await Promise.all(keys.map((k) => redis.redisClient().pttl(k)));
    expect(ttls.some((t) => t > 0 && t <= 5_000)).toBe(true);
    expect(await m.firstSighting('dpop-test', randomUUID(), 5_000)).toBe(true);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESPONSE_FLOOR_MS, RESPONSE_JITTER_MS, startResponseFloor, withResponseFloor } from './response-floor';

// A fake clock: `sleep` advances it, so every wait is observable and instant.
function clock(start = 1_000) {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
  };
}

describe('startResponseFloor', () => {
  it('pads a fast path up to the floor', async () => {
    const c = clock();
    const floor = startResponseFloor({ floorMs: 500, jitterMs: 0, now: c.now, sleep: c.sleep });
    c.advance(120);
    await floor.wait();
    expect(c.sleeps).toEqual([380]);
    expect(c.now()).toBe(1_500);
  });

  it('does not wait when the work already took longer than the floor', async () => {
    const c = clock();
    const floor = startResponseFloor({ floorMs: 500, jitterMs: 0, now: c.now, sleep: c.sleep });
    c.advance(800);
    await floor.wait();
    expect(c.sleeps).toEqual([]);
  });

  it('two paths of different cost end at the same moment (no jitter)', async () => {
    const ends: number[] = [];
    for (const cost of [5, 240, 499]) {
      const c = clock(0);
      const floor = startResponseFloor({ floorMs: 500, jitterMs: 0, now: c.now, sleep: c.sleep });
      c.advance(cost);
      await floor.wait();
      ends.push(c.now());
    }
    expect(ends).toEqual([500, 500, 500]);
  });

  it.each([
    [0, 475],
    [0.5, 500],
    [1, 525],
  ])('jitter stays within ±jitter of the floor (random %d -> %d ms)', (r, expected) => {
    const floor = startResponseFloor({ floorMs: 500, jitterMs: 25, random: () => r });
    expect(floor.targetMs).toBeCloseTo(expected, 6);
  });

  it('never targets a negative time', () => {
    expect(startResponseFloor({ floorMs: 10, jitterMs: 50, random: () => 0 }).targetMs).toBe(0);
  });

  it('defaults to the documented floor and jitter', () => {
    for (let i = 0; i < 200; i++) {
      const t = startResponseFloor().targetMs;
      expect(t).toBeGreaterThanOrEqual(RESPONSE_FLOOR_MS - RESPONSE_JITTER_MS);
      expect(t).toBeLessThanOrEqual(RESPONSE_FLOOR_MS + RESPONSE_JITTER_MS);
    }
  });
});

describe('withResponseFloor', () => {
  it('returns the work result after the floor', async () => {
    const c = clock(0);
    const out = await withResponseFloor(
      async () => {
        c.advance(30);
        return 'done';
      },
      { floorMs: 200, jitterMs: 0, now: c.now, sleep: c.sleep },
    );
    expect(out).toBe('done');
    expect(c.now()).toBe(200);
  });

  it('pads a failure too, then rethrows it', async () => {
    const c = clock(0);
    const run = withResponseFloor(
      async () => {
        c.advance(10);
        throw new Error('boom');
      },
      { floorMs: 200, jitterMs: 0, now: c.now, sleep: c.sleep },
    );
    await expect(run).rejects.toThrow('boom');
    expect(c.now()).toBe(200);
  });

  describe('with the real timer', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('sleeps on setTimeout until the floor', async () => {
      let done = false;
      const p = withResponseFloor(async () => 1, { floorMs: 300, jitterMs: 0 }).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(299);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await p;
      expect(done).toBe(true);
    });
  });
});

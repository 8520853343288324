import { describe, expect, it } from 'vitest';
import { concurrencyGate } from './concurrency-gate';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('concurrencyGate', () => {
  it('runs at most `limit` at once, every call in turn, and passes results and errors through', async () => {
    const gate = concurrencyGate(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const calls = Array.from({ length: 7 }, (_, i) =>
      gate(async () => {
        running++;
        peak = Math.max(peak, running);
        await tick();
        running--;
        order.push(i);
        if (i === 3) throw new Error('call 3 failed');
        return i * 10;
      }),
    );
    const settled = await Promise.allSettled(calls);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([0, 10, 20, 'call 3 failed', 40, 50, 60]);
    // A failed call gave its slot back: the gate is free again.
    expect(await Promise.all([gate(async () => 'a'), gate(async () => 'b'), gate(async () => 'c')])).toEqual(['a', 'b', 'c']);
  });

  it('refuses a limit below one', () => {
    expect(() => concurrencyGate(0)).toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { turnBarrier } from './turn-barrier';

describe('the turn barrier', () => {
  it('is one promise for every caller until it settles, in the next check phase; then a new one', async () => {
    const order: string[] = [];
    const first = turnBarrier();
    expect(turnBarrier()).toBe(first);
    setImmediate(() => order.push('an immediate queued after the barrier'));
    void first.then(() => order.push('the barrier'));
    await first;
    await Promise.resolve();
    expect(order).toEqual(['the barrier']);
    const next = turnBarrier();
    expect(next).not.toBe(first);
    await next;
    expect(order).toEqual(['the barrier', 'an immediate queued after the barrier']);
  });
});

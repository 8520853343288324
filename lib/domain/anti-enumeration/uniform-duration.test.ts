import { describe, expect, it } from 'vitest';
import { uniformTarget, withUniformDuration } from './uniform-duration';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn().catch(() => undefined);
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('withUniformDuration', () => {
  it('pads a fast path and a slower one to the same duration (medians within 10%)', async () => {
    const real: number[] = [];
    const missing: number[] = [];
    for (let i = 0; i < 6; i++) {
      real.push(await timed(() => withUniformDuration('t-equal', async () => (await sleep(25), { value: 1, real: true }), { floorMs: 120, jitterMs: 10 })));
      missing.push(await timed(() => withUniformDuration('t-equal', async () => ({ value: 1, real: false }), { floorMs: 120, jitterMs: 10 })));
    }
    expect(Math.min(...real, ...missing)).toBeGreaterThanOrEqual(119);
    expect(Math.abs(median(real) - median(missing)) / median(real)).toBeLessThan(0.1);
  });

  it('pads failures too', async () => {
    const ms = await timed(() => withUniformDuration('t-fail', async () => Promise.reject(new Error('boom')), { floorMs: 80, jitterMs: 0 }));
    expect(ms).toBeGreaterThanOrEqual(79);
    await expect(withUniformDuration('t-fail', async () => Promise.reject(new Error('boom')), { floorMs: 1, jitterMs: 0 })).rejects.toThrow('boom');
  });

  it('a real path slower than the floor raises the target of later calls above it', async () => {
    await withUniformDuration('t-slow', async () => (await sleep(150), { value: 1, real: true }), { floorMs: 20, jitterMs: 0 });
    expect(uniformTarget('t-slow', 20)).toBeGreaterThanOrEqual(150);
    const missing = await timed(() => withUniformDuration('t-slow', async () => ({ value: 1, real: false }), { floorMs: 20, jitterMs: 0 }));
    expect(missing).toBeGreaterThanOrEqual(149);
  });

  it('one slow outlier among fast real paths does not move the target', async () => {
    for (let i = 0; i < 3; i++) await withUniformDuration('t-outlier', async () => ({ value: 1, real: true }), { floorMs: 1, jitterMs: 0 });
    await withUniformDuration('t-outlier', async () => (await sleep(200), { value: 1, real: true }), { floorMs: 1, jitterMs: 0 });
    expect(uniformTarget('t-outlier', 50)).toBe(50);
  });

  it('returns the value of the work', async () => {
    expect(await withUniformDuration('t-value', async () => ({ value: 'x', real: false }), { floorMs: 1 })).toBe('x');
  });
});

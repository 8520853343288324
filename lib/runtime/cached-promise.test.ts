import { describe, expect, it } from 'vitest';
import { cachedPromise, dropSharedPromise, sharedPromise } from './cached-promise';

describe('cachedPromise', () => {
  it('shares one load between concurrent callers', async () => {
    const slots = new Map<string, Promise<number>>();
    let loads = 0;
    const load = async () => ++loads;
    const [a, b] = await Promise.all([cachedPromise(slots, 'k', load), cachedPromise(slots, 'k', load)]);
    expect([a, b, loads]).toEqual([1, 1, 1]);
  });

  it('forgets a failed load, so the next caller retries', async () => {
    const slots = new Map<string, Promise<number>>();
    await expect(cachedPromise(slots, 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(slots.has('k')).toBe(false);
    expect(await cachedPromise(slots, 'k', async () => 2)).toBe(2);
  });

  it('keeps a newer promise stored under the key when an older one fails', async () => {
    const slots = new Map<string, Promise<number>>();
    let fail!: (e: Error) => void;
    const first = cachedPromise(slots, 'k', () => new Promise<number>((_, reject) => (fail = reject)));
    const newer = Promise.resolve(3);
    slots.set('k', newer);
    fail(new Error('late'));
    await expect(first).rejects.toThrow('late');
    expect(slots.get('k')).toBe(newer);
  });
});

describe('sharedPromise', () => {
  it('is one promise per name until dropped', async () => {
    const p = sharedPromise('test.cached-promise', async () => ({}));
    expect(sharedPromise('test.cached-promise', async () => ({}))).toBe(p);
    expect(dropSharedPromise('test.cached-promise')).toBe(p);
    expect(sharedPromise('test.cached-promise', async () => ({}))).not.toBe(p);
    await dropSharedPromise('test.cached-promise');
  });
});

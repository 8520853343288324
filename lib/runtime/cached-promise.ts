import { shared } from './shared';

// Loads that many callers await at once (a database open, a key, a realm's engine or group graph)
// are cached as the promise itself, stored before it settles so concurrent first callers share one
// load, and dropped again when it fails so the next caller retries instead of inheriting the error.

/** A map of promises: a Map or an LRUCache. */
export type PromiseSlots<K, V> = {
  get(key: K): Promise<V> | undefined;
  set(key: K, value: Promise<V>): unknown;
  delete(key: K): unknown;
};

/** The promise cached under `key`, or the one `load` starts, cached until it fails. */
export function cachedPromise<K, V>(slots: PromiseSlots<K, V>, key: K, load: () => Promise<V>): Promise<V> {
  const hit = slots.get(key);
  if (hit) return hit;
  const loading = load();
  slots.set(key, loading);
  loading.catch(() => {
    if (slots.get(key) === loading) slots.delete(key);
  });
  return loading;
}

// What cached promises fulfilled with, keyed by the promise itself: a hot path takes a loaded value
// at once instead of awaiting it (with async hooks on, every await allocates a promise), and a value
// whose promise left its cache is never found, since the lookup goes through the cache.
const fulfilled = () => shared('runtime.fulfilled-promises', () => new WeakMap<Promise<unknown>, unknown>());

/** `promise`, whose value settledValue will answer once it has fulfilled. */
export function rememberFulfilled<T>(promise: Promise<T>): Promise<T> {
  if (!fulfilled().has(promise))
    promise.then(
      (value) => fulfilled().set(promise, value),
      () => undefined,
    );
  return promise;
}

/** The value a promise passed to rememberFulfilled fulfilled with; undefined while pending, rejected or absent. */
export function settledValue<T>(promise: Promise<T> | undefined): T | undefined {
  return promise && (fulfilled().get(promise) as T | undefined);
}

const named = () => shared('runtime.shared-promises', () => new Map<string, Promise<unknown>>());

/** A process-wide promise (see shared.ts) named `name`, started by `load` on first use, retried after a failure. */
export function sharedPromise<T>(name: string, load: () => Promise<T>): Promise<T> {
  return cachedPromise(named(), name, load) as Promise<T>;
}

/** Forgets the shared promise `name` (shutdown, tests) and returns it, so the caller can dispose of what it holds. */
export function dropSharedPromise<T>(name: string): Promise<T> | undefined {
  const p = named().get(name) as Promise<T> | undefined;
  named().delete(name);
  return p;
}

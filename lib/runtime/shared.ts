// Singletons shared by server.ts and Next's bundles. Each bundle gets its own copy of every module
// (docs/environment.md), so module-level state would be duplicated: realm cache, database pools, event
// bus and rate limiters live on globalThis under one key instead.
const KEY = Symbol.for('gatehouse.shared');

type Registry = Map<string, unknown>;

function registry(): Registry {
  const g = globalThis as unknown as Record<symbol, Registry | undefined>;
  let r = g[KEY];
  if (!r) {
    r = new Map();
    g[KEY] = r;
  }
  return r;
}

/** Returns the process-wide instance named `name`, creating it with `init` the first time. */
export function shared<T>(name: string, init: () => T): T {
  const r = registry();
  if (!r.has(name)) r.set(name, init());
  return r.get(name) as T;
}

/** Drops a shared instance (tests, and disposal at shutdown). */
export function dropShared(name: string): void {
  registry().delete(name);
}

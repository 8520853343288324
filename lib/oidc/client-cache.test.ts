import { describe, expect, it } from 'vitest';
import { clientCache, dropRealmClients } from './client-cache';

describe('the engine client cache', () => {
  it("drops only the changed realm's clients", () => {
    const cache = clientCache();
    cache.clear();
    cache.set('realm-a:one', Promise.resolve(null));
    cache.set('realm-a:two', Promise.resolve(null));
    cache.set('realm-ab:three', Promise.resolve(null));
    cache.set('realm-b:four', Promise.resolve(null));
    dropRealmClients('realm-a');
    expect([...cache.keys()].sort()).toEqual(['realm-ab:three', 'realm-b:four']);
  });
});

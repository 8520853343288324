import type { RealmRecord } from '../realm/realm-record';
import { shared } from './shared';

// The derived stores a realm's maintenance routes check and rebuild (spec 4.7 "Maintenance") that
// live in a door rather than in the domain: the OAuth engine's caches (lib/oidc) register here when
// the engine starts, so the domain can reach them without importing the door.

export type DerivedStore = {
  /** Shown to administrators: a short PascalCase name. */
  name: string;
  /** What differs between the store and what it derives from, in plain words with no personal data; [] when consistent. */
  check(realm: RealmRecord): Promise<string[]>;
  /** Recomputes (or drops, for a cache) the realm's part of the store; answers what it changed. */
  rebuild(realm: RealmRecord): Promise<string[]>;
};

const registry = () => shared('derived-stores', () => new Map<string, DerivedStore>());

export function registerDerivedStore(store: DerivedStore): void {
  registry().set(store.name, store);
}

export function registeredDerivedStores(): DerivedStore[] {
  return [...registry().values()];
}

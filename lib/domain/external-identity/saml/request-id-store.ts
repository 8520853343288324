import type { CacheItem, CacheProvider } from '@node-saml/node-saml';

// The IDs of the AuthnRequests a realm sent, so that a response is accepted only as the answer to
// one of them, and only once (the spec refuses IdP-initiated SSO; SAML profiles 4.1.4.5 ask the SP
// to refuse replays). The integrator keeps them in the realm's database, so any instance may
// receive the response and another realm's requests are unknown here.
export interface RequestIdStore {
  remember(id: string, expiresAt: Date): Promise<void>;
  /** true once, then false (unknown, expired or already taken): the one atomic step of a sign-in. */
  takeOnce(id: string): Promise<boolean>;
}

/** How long the person may take at the IdP between our redirect and the response. */
export const REQUEST_ID_LIFETIME_MS = 60 * 60_000;

/**
 * node-saml's CacheProvider over a RequestIdStore, one per validation. node-saml reads the id twice
 * (the Response's InResponseTo, then the assertion's SubjectConfirmationData) and removes it after,
 * a read then a delete: two copies of one response posted at the same moment could both pass the
 * read. So the first read takes the id atomically (takeOnce) and later reads of that same id within
 * this validation see it as taken by us; removal is then a no-op.
 */
export function cacheProviderOver(store: RequestIdStore): CacheProvider {
  const takenHere = new Set<string>();
  return {
    async saveAsync(key: string, value: string): Promise<CacheItem | null> {
      await store.remember(key, new Date(Date.now() + REQUEST_ID_LIFETIME_MS));
      return { value, createdAt: Date.now() };
    },
    async getAsync(key: string): Promise<string | null> {
      if (!takenHere.has(key)) {
        if (!(await store.takeOnce(key))) return null;
        takenHere.add(key);
      }
      // node-saml compares this "created at" with its own expiry period: the store already enforced ours.
      return new Date().toISOString();
    },
    async removeAsync(): Promise<string | null> {
      return null;
    },
  };
}

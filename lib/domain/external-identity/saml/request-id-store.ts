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
 * node-saml's CacheProvider over a RequestIdStore, for the AuthnRequest: node-saml saves the id of
 * each request it makes. It never reads the id back here: the response's id is taken once by
 * validate-post.ts before the response is parsed, and the worker that checks the response is told
 * which id that was (validate-worker.mjs).
 */
export function cacheProviderOver(store: RequestIdStore): CacheProvider {
  return {
    async saveAsync(key: string, value: string): Promise<CacheItem | null> {
      await store.remember(key, new Date(Date.now() + REQUEST_ID_LIFETIME_MS));
      return { value, createdAt: Date.now() };
    },
    async getAsync(): Promise<string | null> {
      return null;
    },
    async removeAsync(): Promise<string | null> {
      return null;
    },
  };
}

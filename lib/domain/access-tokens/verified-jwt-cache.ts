import type { JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../../crypto/tokens';
import { shared } from '../../runtime/shared';

// JWT access tokens whose signature and issuer verified, by the digest of the token, so that a token
// checked again (a resource server introspecting it, a client calling Gatehouse's API with it) does
// not pay an ECDSA or RSA verification each time: it was about a fifth of a JWT introspection's CPU.
// What the cache answers is only what cannot change for the same bytes under the same keys: the
// signature and the claims. Liveness (revoked, grant ended, client deactivated) is read afresh by
// the caller every time. An entry is bound to what it was verified against: the key set (the object
// the key cache holds; when that set is dropped, a key rotated or removed, its entries no longer
// answer) and the issuer the realm had then (a changed primary domain refuses the old issuer at
// once, as jwtVerify would, whatever the key cache holds). An entry never outlives the token's
// `exp`, nor five minutes.

const MAX_ENTRIES = 10_000;
const MAX_AGE_MS = 5 * 60_000;

/** What a token is verified against: the realm, its issuer now, and the key set in use. */
export type VerifiedAgainst = { realmId: string; issuer: string; keys: object };

type Entry = { issuer: string; keys: object; payload: Readonly<JWTPayload> };

function cache(): LRUCache<string, Entry> {
  return shared('auth.verified-jwts', () => new LRUCache<string, Entry>({ max: MAX_ENTRIES, ttl: MAX_AGE_MS }));
}

const keyOf = (realmId: string, token: string) => `${realmId}:${sha256Hex(token)}`;

/** The claims of a token verified before against the same issuer and keys, while it has not expired. */
export function cachedVerifiedJwt(against: VerifiedAgainst, token: string, now = Date.now()): Readonly<JWTPayload> | undefined {
  const entry = cache().get(keyOf(against.realmId, token));
  if (!entry || entry.keys !== against.keys || entry.issuer !== against.issuer) return undefined;
  if (typeof entry.payload.exp === 'number' && entry.payload.exp * 1000 <= now) return undefined;
  return entry.payload;
}

/** Remembers a token that verified; returns its claims, frozen (callers share them). */
export function rememberVerifiedJwt(against: VerifiedAgainst, token: string, payload: JWTPayload, now = Date.now()): Readonly<JWTPayload> {
  const frozen = Object.freeze(payload);
  const untilExpiry = typeof payload.exp === 'number' ? payload.exp * 1000 - now : MAX_AGE_MS;
  const entry = { issuer: against.issuer, keys: against.keys, payload: frozen };
  if (untilExpiry > 0) cache().set(keyOf(against.realmId, token), entry, { ttl: Math.min(untilExpiry, MAX_AGE_MS) });
  return frozen;
}

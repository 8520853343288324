import { describe, expect, it } from 'vitest';
import { cachedVerifiedJwt, rememberVerifiedJwt } from './verified-jwt-cache';

// What a remembered verification may answer: the same token, realm, issuer and key set, before the
// token's expiry; nothing else.

const now = Date.UTC(2026, 10, 28, 12);
const exp = now / 1000 + 600;
const issuer = 'https://id.example.test';

describe('verified JWT cache', () => {
  it('answers the same token under the same key set, frozen', () => {
    const keys = {};
    const stored = rememberVerifiedJwt({ realmId: 'realm-a', issuer, keys }, 'tok-1', { sub: 'u', exp }, now);
    expect(Object.isFrozen(stored)).toBe(true);
    expect(cachedVerifiedJwt({ realmId: 'realm-a', issuer, keys }, 'tok-1', now + 1000)).toEqual({ sub: 'u', exp });
  });

  it('does not answer for another key set, realm or token', () => {
    const keys = {};
    rememberVerifiedJwt({ realmId: 'realm-b', issuer, keys }, 'tok-2', { exp }, now);
    expect(cachedVerifiedJwt({ realmId: 'realm-b', issuer, keys: {} }, 'tok-2', now)).toBeUndefined(); // the keys were reloaded since
    expect(cachedVerifiedJwt({ realmId: 'realm-c', issuer, keys }, 'tok-2', now)).toBeUndefined();
    expect(cachedVerifiedJwt({ realmId: 'realm-b', issuer, keys }, 'tok-2x', now)).toBeUndefined();
  });

  it('does not answer once the realm has another issuer (its primary domain changed)', () => {
    const keys = {};
    rememberVerifiedJwt({ realmId: 'realm-f', issuer, keys }, 'tok-5', { exp }, now);
    expect(cachedVerifiedJwt({ realmId: 'realm-f', issuer: 'https://new.example.test', keys }, 'tok-5', now)).toBeUndefined();
  });

  it('stops answering once the token has expired', () => {
    const keys = {};
    rememberVerifiedJwt({ realmId: 'realm-d', issuer, keys }, 'tok-3', { exp }, now);
    expect(cachedVerifiedJwt({ realmId: 'realm-d', issuer, keys }, 'tok-3', exp * 1000 - 1)).toBeDefined();
    expect(cachedVerifiedJwt({ realmId: 'realm-d', issuer, keys }, 'tok-3', exp * 1000)).toBeUndefined();
  });

  it('does not keep a token that has already expired', () => {
    const keys = {};
    rememberVerifiedJwt({ realmId: 'realm-e', issuer, keys }, 'tok-4', { exp: now / 1000 - 1 }, now);
    expect(cachedVerifiedJwt({ realmId: 'realm-e', issuer, keys }, 'tok-4', now - 5000)).toBeUndefined();
  });
});

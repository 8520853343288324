import { describe, expect, it } from 'vitest';
import { cachedVerifiedJwt, rememberVerifiedJwt } from './verified-jwt-cache';

// What a remembered verification may answer: the same token, realm and key set, before the token's
// expiry; nothing else.

const now = Date.UTC(2026, 10, 28, 12);
const exp = now / 1000 + 600;

describe('verified JWT cache', () => {
  it('answers the same token under the same key set, frozen', () => {
    const keys = {};
    const stored = rememberVerifiedJwt('realm-a', 'tok-1', keys, { sub: 'u', exp }, now);
    expect(Object.isFrozen(stored)).toBe(true);
    expect(cachedVerifiedJwt('realm-a', 'tok-1', keys, now + 1000)).toEqual({ sub: 'u', exp });
  });

  it('does not answer for another key set, realm or token', () => {
    const keys = {};
    rememberVerifiedJwt('realm-b', 'tok-2', keys, { exp }, now);
    expect(cachedVerifiedJwt('realm-b', 'tok-2', {}, now)).toBeUndefined(); // the keys were reloaded since
    expect(cachedVerifiedJwt('realm-c', 'tok-2', keys, now)).toBeUndefined();
    expect(cachedVerifiedJwt('realm-b', 'tok-2x', keys, now)).toBeUndefined();
  });

  it('stops answering once the token has expired', () => {
    const keys = {};
    rememberVerifiedJwt('realm-d', 'tok-3', keys, { exp }, now);
    expect(cachedVerifiedJwt('realm-d', 'tok-3', keys, exp * 1000 - 1)).toBeDefined();
    expect(cachedVerifiedJwt('realm-d', 'tok-3', keys, exp * 1000)).toBeUndefined();
  });

  it('does not keep a token that has already expired', () => {
    const keys = {};
    rememberVerifiedJwt('realm-e', 'tok-4', keys, { exp: now / 1000 - 1 }, now);
    expect(cachedVerifiedJwt('realm-e', 'tok-4', keys, now - 5000)).toBeUndefined();
  });
});

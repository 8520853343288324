import { describe, expect, it } from 'vitest';
import { isAppError } from '../../errors/app-error';
import { requireResetContinuation, resetContinuation } from './reset-continuation';

// The continuation carried from forgot-password to the reset (spec 4.1): same-realm relative paths
// only. Exhaustive on purpose: an open redirect here hands a phishing page a password-reset link.
describe('resetContinuation', () => {
  it.each([
    '/',
    '/console',
    '/console/users?page=2',
    '/connect/authorize?client_id=a&redirect_uri=https%3A%2F%2Fapp.test%2Fcb&state=x',
    '/a/b#frag',
    '/%2F%2Fevil.test',
    '/a:b',
    '/@evil.test',
    '/x?next=//evil.test',
    '/ü/ñ',
  ])('keeps the same-origin path %j', (v) => {
    const out = resetContinuation(v);
    expect(out).toBeDefined();
    expect(new URL(out!, 'http://realm.test').origin).toBe('http://realm.test');
  });

  it('keeps ordinary paths exactly as sent', () => {
    expect(resetContinuation('/connect/authorize?client_id=a&state=b')).toBe('/connect/authorize?client_id=a&state=b');
  });

  it.each([
    // Other origins, absolute and protocol-relative.
    'https://evil.test/',
    'http://evil.test',
    'HTTP://evil.test',
    '//evil.test',
    '///evil.test',
    '//evil.test/path',
    // Backslashes: browsers read them as slashes.
    '/\\evil.test',
    '\\\\evil.test',
    '\\/evil.test',
    '/a\\b',
    // Dot segments that resolve to a protocol-relative path.
    '/.//evil.test',
    '/..//evil.test',
    '/a/..//evil.test',
    '/%2e%2e//evil.test',
    '/%2E//evil.test',
    '/a/%2e%2e//evil.test/x',
    // Control characters and whitespace browsers strip inside URLs.
    '/\t/evil.test',
    '/\n/evil.test',
    '/\r/evil.test',
    '/\u0000x',
    '/\u007f',
    '/ /x',
    ' /x',
    '/x ',
    // Schemes and bare hosts.
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,x',
    'evil.test',
    'evil.test/x',
    '?x=1',
    '#frag',
    '',
    // Too long.
    `/${'a'.repeat(2048)}`,
  ])('refuses %j', (v) => {
    expect(resetContinuation(v)).toBeUndefined();
  });

  it.each([undefined, null, 5, true, ['/a'], { a: 1 }])('refuses a non-string (%j)', (v) => {
    expect(resetContinuation(v)).toBeUndefined();
  });

  it('accepts the longest allowed path', () => {
    const long = `/${'a'.repeat(2047)}`;
    expect(resetContinuation(long)).toBe(long);
  });
});

describe('requireResetContinuation', () => {
  it.each([undefined, null, ''])('absent (%j) is no continuation', (v) => {
    expect(requireResetContinuation(v)).toBeUndefined();
  });

  it('answers the safe value', () => {
    expect(requireResetContinuation('/console')).toBe('/console');
  });

  it.each(['//evil.test', 'https://evil.test', '/a/..//evil.test'])('refuses %j with Continuation.Invalid', (v) => {
    try {
      requireResetContinuation(v);
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e) && e.code).toBe('Continuation.Invalid');
      expect(isAppError(e) && e.errors?.Redirect).toBeDefined();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { isEmailHint, loginHint } from './login-hint';

describe('loginHint', () => {
  it('keeps a user name or an e-mail address, trimmed', () => {
    expect(loginHint('alice')).toBe('alice');
    expect(loginHint('  alice@example.com\t')).toBe('alice@example.com');
    expect(loginHint(['bob', 'eve'])).toBe('bob');
  });

  it('keeps what the user-name rule allows, markup-looking characters included (React escapes them)', () => {
    expect(loginHint('<b>x</b>')).toBe('<b>x</b>');
  });

  it.each([
    [undefined, 'absent'],
    ['', 'empty'],
    ['   ', 'blank'],
    ['two words', 'inner space'],
    ['a\u0000b', 'control character'],
    ['a\u200bb', 'format character'],
    ['x'.repeat(257), 'too long'],
  ] as [string | undefined, string][])('drops %j (%s)', (value) => {
    expect(loginHint(value)).toBeUndefined();
  });

  it('accepts exactly 256 characters', () => {
    expect(loginHint('x'.repeat(256))).toHaveLength(256);
  });
});

describe('isEmailHint', () => {
  it('tells e-mail addresses from user names', () => {
    expect(isEmailHint('alice@example.com')).toBe(true);
    expect(isEmailHint('alice')).toBe(false);
    expect(isEmailHint(undefined)).toBe(false);
  });
});

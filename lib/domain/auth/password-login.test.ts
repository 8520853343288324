import { describe, expect, it } from 'vitest';
import { lockoutKey } from './password-login';

describe('lockoutKey', () => {
  it('is the account when the name resolves, whatever was typed', () => {
    expect(lockoutKey('Ada', 'u1')).toBe('account:u1');
    expect(lockoutKey('ada@example.test', 'u1')).toBe('account:u1');
  });

  it('is the normalised name when nothing resolves, never colliding with an account key', () => {
    expect(lockoutKey('  NoBody ', undefined)).toBe('name:nobody');
    expect(lockoutKey('account:u1', undefined)).toBe('name:account:u1');
  });
});

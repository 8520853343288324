import { describe, expect, it } from 'vitest';
import { isCommonPassword, passwordPolicyProblems } from './password-policy';

const policy = { MinLength: 10, RejectCommon: true, RejectContextual: true };

describe('password policy', () => {
  it('accepts a long, uncommon passphrase with no composition rules', () => {
    expect(passwordPolicyProblems('purple tractor sings', policy)).toEqual([]);
  });

  it('enforces the minimum and maximum length', () => {
    expect(passwordPolicyProblems('short', policy)[0]).toMatch(/at least 10/);
    expect(passwordPolicyProblems('x'.repeat(257) + 'y', policy).join()).toMatch(/at most 256/);
  });

  it('rejects common passwords, also with trailing digits or symbols', () => {
    expect(isCommonPassword('password')).toBe(true);
    expect(isCommonPassword('Password2024!')).toBe(true);
    expect(isCommonPassword('qwertyuiop')).toBe(true);
    expect(isCommonPassword('purple tractor sings')).toBe(false);
    expect(passwordPolicyProblems('baseball123456', policy).join()).toMatch(/too common/);
  });

  it('rejects passwords containing the user name, mailbox or realm name, unless turned off', () => {
    const ctx = { userName: 'margaret', email: 'mags.t@example.com', realmWords: ['Acme Industries'] };
    expect(passwordPolicyProblems('margaret-is-great', policy, ctx).join()).toMatch(/user name/);
    expect(passwordPolicyProblems('xx mags.t the best', policy, ctx).join()).toMatch(/user name/);
    expect(passwordPolicyProblems('margaret-is-great', { ...policy, RejectContextual: false }, ctx)).toEqual([]);
  });

  it('rejects a single repeated character', () => {
    expect(passwordPolicyProblems('aaaaaaaaaaaa', { ...policy, RejectCommon: false }).join()).toMatch(/repeat/);
  });
});

import { describe, expect, it } from 'vitest';
import { isSafeContinuation, registrationFieldProblems } from './fields';

describe('registrationFieldProblems', () => {
  const policy = { Username: 'Required', Firstname: 'Optional', Lastname: 'Off' } as const;

  it('accepts required and optional fields, and an Off field left out or blank', () => {
    expect(registrationFieldProblems(policy, { UserName: 'ann' })).toEqual({});
    expect(registrationFieldProblems(policy, { UserName: 'ann', Firstname: 'Ann', Lastname: '  ' })).toEqual({});
    expect(registrationFieldProblems(policy, { UserName: 'ann', Lastname: null })).toEqual({});
  });

  it('names a missing Required field and a sent Off field', () => {
    const e = registrationFieldProblems(policy, { UserName: ' ', Lastname: 'Smith' });
    expect(Object.keys(e).sort()).toEqual(['Lastname', 'UserName']);
  });

  it('all Optional: anything goes', () => {
    expect(registrationFieldProblems({ Username: 'Optional', Firstname: 'Optional', Lastname: 'Optional' }, {})).toEqual({});
  });
});

describe('isSafeContinuation', () => {
  it.each(['/', '/connect/authorize?client_id=x&state=y', '/console/users#top'])('accepts %s', (v) => {
    expect(isSafeContinuation(v)).toBe(true);
  });

  it.each(['https://evil.test/', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)', 'relative/path', '/a\nb', ''])('refuses %j', (v) => {
    expect(isSafeContinuation(v)).toBe(false);
  });
});

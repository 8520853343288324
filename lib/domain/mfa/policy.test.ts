import { describe, expect, it } from 'vitest';
import { gracePeriodActive, twoFactorRequired } from './policy';

describe('twoFactorRequired', () => {
  it.each([
    ['Default', false, false],
    ['Default', true, true],
    ['Required', false, true],
    ['Required', true, true],
    ['Exempt', true, false],
    ['Exempt', false, false],
  ] as const)('%s with realm requirement %s -> %s', (policy, realm, expected) => {
    expect(twoFactorRequired(policy, realm)).toBe(expected);
  });
});

describe('gracePeriodActive', () => {
  const now = Date.UTC(2026, 0, 10);
  const later = new Date(now + 1000);
  const earlier = new Date(now - 1000);
  it('runs only while required, unsecured and before the deadline', () => {
    expect(gracePeriodActive({ required: true, secured: false, dueAt: later }, now)).toBe(true);
    expect(gracePeriodActive({ required: true, secured: false, dueAt: earlier }, now)).toBe(false);
    expect(gracePeriodActive({ required: true, secured: false, dueAt: null }, now)).toBe(false);
    expect(gracePeriodActive({ required: true, secured: true, dueAt: later }, now)).toBe(false);
    expect(gracePeriodActive({ required: false, secured: false, dueAt: later }, now)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { methodsLabel, relativeTime } from './session-format';

const NOW = Date.parse('2025-06-15T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('relativeTime', () => {
  it('reads recent and older moments', () => {
    expect(relativeTime(ago(5), NOW)).toBe('just now');
    expect(relativeTime(ago(-20), NOW)).toBe('just now');
    expect(relativeTime(ago(60), NOW)).toBe('1 minute ago');
    expect(relativeTime(ago(5 * 60 + 30), NOW)).toBe('5 minutes ago');
    expect(relativeTime(ago(3 * 3600), NOW)).toBe('3 hours ago');
    expect(relativeTime(ago(26 * 3600), NOW)).toBe('yesterday');
    expect(relativeTime(ago(15 * 24 * 3600), NOW)).toBe('2 weeks ago');
    expect(relativeTime(ago(400 * 24 * 3600), NOW)).toBe('last year');
    expect(relativeTime(ago(-3 * 24 * 3600), NOW)).toBe('in 3 days');
  });

  it('passes unreadable input through', () => {
    expect(relativeTime('not a date', NOW)).toBe('not a date');
  });
});

describe('methodsLabel', () => {
  it('names the sign-in methods in words', () => {
    expect(methodsLabel(['pwd'])).toBe('password');
    expect(methodsLabel(['pwd', 'otp'])).toBe('password and one-time code');
    expect(methodsLabel(['mail', 'otp', 'hwk'])).toBe('e-mail link, one-time code and passkey');
    expect(methodsLabel(['hwk', 'user'])).toBe('passkey');
    expect(methodsLabel([])).toBeNull();
  });
});

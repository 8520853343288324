import { describe, expect, it } from 'vitest';
import { inviteStateOf } from './admin-invite-state';

// The bootstrap page and the redemption judge an invite the same way (spec 3.3).
describe('inviteStateOf', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const later = new Date(now + 3600_000);
  it('open, used before anything else, then revoked or expired as invalid', () => {
    expect(inviteStateOf({ usedAt: null, revokedAt: null, expiresAt: later }, now)).toBe('open');
    expect(inviteStateOf({ usedAt: new Date(now - 1), revokedAt: null, expiresAt: new Date(now - 1) }, now)).toBe('used');
    expect(inviteStateOf({ usedAt: null, revokedAt: new Date(now - 1), expiresAt: later }, now)).toBe('invalid');
    expect(inviteStateOf({ usedAt: null, revokedAt: null, expiresAt: new Date(now) }, now)).toBe('invalid');
    expect(inviteStateOf(null, now)).toBe('invalid');
  });
});

import { describe, expect, it } from 'vitest';
import { inviteCodeStatus } from './status';

const now = new Date('2026-11-10T12:00:00Z');
const past = new Date('2026-11-10T11:00:00Z');
const future = new Date('2026-11-11T12:00:00Z');

describe('inviteCodeStatus', () => {
  it.each([
    [{ usedAt: null, revokedAt: null, expiresAt: null }, 'Active'],
    [{ usedAt: null, revokedAt: null, expiresAt: future }, 'Active'],
    [{ usedAt: null, revokedAt: null, expiresAt: past }, 'Expired'],
    [{ usedAt: null, revokedAt: null, expiresAt: now }, 'Expired'],
    [{ usedAt: null, revokedAt: past, expiresAt: past }, 'Revoked'],
    [{ usedAt: past, revokedAt: past, expiresAt: past }, 'Used'],
    [{ usedAt: past, revokedAt: null, expiresAt: null }, 'Used'],
  ] as const)('%j is %s', (row, status) => {
    expect(inviteCodeStatus(row, now)).toBe(status);
  });
});

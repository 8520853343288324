import type { RealmPrisma } from '../../db/types';

// The state of an invite code, derived from its timestamps: a code that was used stays Used even if
// it was later revoked or has expired since; a revoked code stays Revoked after its expiry.
export const INVITE_CODE_STATUSES = ['Active', 'Used', 'Expired', 'Revoked'] as const;
export type InviteCodeStatus = (typeof INVITE_CODE_STATUSES)[number];

type Stamps = { usedAt: Date | null; revokedAt: Date | null; expiresAt: Date | null };

export function inviteCodeStatus(row: Stamps, now = new Date()): InviteCodeStatus {
  if (row.usedAt) return 'Used';
  if (row.revokedAt) return 'Revoked';
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'Expired';
  return 'Active';
}

/** The filter that selects the codes of one status (the same precedence as inviteCodeStatus). */
export function inviteCodeStatusWhere(status: InviteCodeStatus, now = new Date()): RealmPrisma.InviteCodeWhereInput {
  switch (status) {
    case 'Used':
      return { usedAt: { not: null } };
    case 'Revoked':
      return { usedAt: null, revokedAt: { not: null } };
    case 'Expired':
      return { usedAt: null, revokedAt: null, expiresAt: { lte: now } };
    case 'Active':
      return { usedAt: null, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
  }
}

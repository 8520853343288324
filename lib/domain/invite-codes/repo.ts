import type { RealmPrisma, RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import type { InviteCodeDto } from './schemas';
import { inviteCodeStatus } from './status';

// Reads shared by the invite-code operations. The hash column is never selected for an answer.
export const inviteCodeColumns = {
  id: true,
  appId: true,
  label: true,
  createdAt: true,
  createdBy: true,
  expiresAt: true,
  usedAt: true,
  usedByUserId: true,
  revokedAt: true,
} as const satisfies RealmPrisma.InviteCodeSelect;

export type InviteCodeRow = RealmPrisma.InviteCodeGetPayload<{ select: typeof inviteCodeColumns }>;

export function toInviteCodeDto(row: InviteCodeRow, now = new Date()): InviteCodeDto {
  return {
    Id: row.id,
    AppId: row.appId,
    Label: row.label,
    CreatedAt: row.createdAt,
    CreatedBy: row.createdBy,
    ExpiresAt: row.expiresAt,
    UsedAt: row.usedAt,
    UsedByUserId: row.usedByUserId,
    RevokedAt: row.revokedAt,
    Status: inviteCodeStatus(row, now),
  };
}

/** The App named by id or slug (as GET /api/app/{id} accepts), or 404 App.NotFound. */
export async function requireAppId(db: RealmTx, idOrSlug: string): Promise<string> {
  const app = await db.app.findFirst({ where: { OR: [{ id: idOrSlug }, { slug: idOrSlug.toLowerCase() }] }, select: { id: true } });
  if (!app) throw new AppError('App.NotFound');
  return app.id;
}

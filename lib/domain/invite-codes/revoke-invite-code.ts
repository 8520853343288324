import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { authorizeInviteCodes } from './access';
import { requireAppId } from './repo';

/**
 * DELETE /api/app/{id}/invite-codes/{codeId}: revokes an unused code. The row stays (it is the
 * audit trail of who minted what); a revoked code can no longer be redeemed. Revoking twice, or a
 * code that was already used, changes nothing and answers the same 204.
 */
export async function revokeInviteCode(ctx: DomainContext, appIdOrSlug: string, codeId: string): Promise<void> {
  await authorizeInviteCodes(ctx, 'write', appIdOrSlug);
  const db = await realmDb(ctx.realm);
  const appId = await requireAppId(db, appIdOrSlug);
  const row = await db.inviteCode.findFirst({ where: { id: codeId, appId }, select: { id: true } });
  if (!row) throw new AppError('InviteCode.NotFound');
  const r = await db.inviteCode.updateMany({ where: { id: codeId, usedAt: null, revokedAt: null }, data: { revokedAt: new Date() } });
  if (r.count) await publish(eventFrom(ctx, 'invite.code-revoked', codeId, { appId }));
}

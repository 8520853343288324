import { requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { findPendingRequest, lockUserRow, requestColumns, retireProfileEmailLinks, toRequestDto } from './repo';
import { PENDING_STATUSES, type ChangeRequestDto } from './schemas';

// DELETE /api/account/profile/request (spec 3.4): the pending request becomes Cancelled and its
// mailed new-address link stops working. 404 ChangeRequest.NotFound when nothing is pending.
export async function cancelProfileRequest(ctx: DomainContext): Promise<ChangeRequestDto> {
  const actor = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const row = await db.$transaction(async (tx) => {
    await lockUserRow(tx, actor.userId);
    const pending = await findPendingRequest(tx, actor.userId);
    if (!pending) throw new AppError('ChangeRequest.NotFound');
    const moved = await tx.userChangeRequest.updateMany({
      where: { id: pending.id, status: { in: PENDING_STATUSES } },
      data: { status: 'Cancelled', updatedAt: new Date() },
    });
    if (moved.count !== 1) throw new AppError('ChangeRequest.NotOpen');
    await retireProfileEmailLinks(tx, actor.userId);
    return tx.userChangeRequest.findUniqueOrThrow({ where: { id: pending.id }, select: requestColumns });
  });
  await publish(eventFrom(ctx, 'user.change-cancelled', row.id, { userId: actor.userId, requestId: row.id }));
  return toRequestDto(row);
}

import { requireUser } from '../../authz/require-permission';
import { realmDb, type DomainContext } from '../../realm/context';
import { findPendingRequest, requestColumns, toRequestDto } from './repo';
import { DECIDED_STATUSES, type ChangeRequestDto } from './schemas';

// GET /api/account/profile/request (spec 4.2): the pending request, if any, and the last one an
// administrator decided, so the user sees both "waiting" and "what happened to my last one".
export async function readOwnRequests(ctx: DomainContext): Promise<{ Open?: ChangeRequestDto; LastDecided?: ChangeRequestDto }> {
  const actor = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const open = await findPendingRequest(db, actor.userId);
  const decided = await db.userChangeRequest.findFirst({
    where: { userId: actor.userId, status: { in: DECIDED_STATUSES } },
    orderBy: [{ decidedAt: 'desc' }, { createdAt: 'desc' }],
    select: requestColumns,
  });
  return { Open: open ? toRequestDto(open) : undefined, LastDecided: decided ? toRequestDto(decided) : undefined };
}

import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { redeemToken } from '../one-time-secrets/one-time-secrets';
import { tokenError } from '../one-time-secrets/token-error';
import { normalizeEmail } from '../users/insert-user';
import type { ChangeRequestStatus } from './schemas';

// POST /api/account/profile/request/verify-email (spec 3.4, anonymous: the token is the proof).
// The link names its request; the request must still wait for exactly the address the link went
// to. The token is spent in the same transaction that moves the request to Open.
export async function verifyProfileEmail(ctx: DomainContext, token: string): Promise<{ Id: string; Status: ChangeRequestStatus }> {
  const db = await realmDb(ctx.realm);
  const found = await redeemToken(db, 'profile-email', token, { consume: false });
  if (!found.ok) throw tokenError(found.reason);
  const data = found.record.data as { requestId?: unknown } | undefined;
  const requestId = typeof data?.requestId === 'string' ? data.requestId : '';
  const request = await db.userChangeRequest.findUnique({ where: { id: requestId }, select: { id: true, userId: true, status: true, newEmail: true } });
  const matches = request && request.userId === found.record.userId && request.newEmail && normalizeEmail(request.newEmail) === found.record.email;
  if (!request || !matches) {
    await redeemToken(db, 'profile-email', token);
    throw new AppError('Token.Invalid');
  }
  if (request.status !== 'AwaitingEmailVerification') {
    await redeemToken(db, 'profile-email', token);
    throw new AppError('ChangeRequest.NotOpen');
  }
  await db.$transaction(async (tx) => {
    const spent = await redeemToken(tx, 'profile-email', token);
    if (!spent.ok) throw tokenError(spent.reason);
    const moved = await tx.userChangeRequest.updateMany({
      where: { id: request.id, status: 'AwaitingEmailVerification' },
      data: { status: 'Open', updatedAt: new Date() },
    });
    if (moved.count !== 1) throw new AppError('ChangeRequest.NotOpen');
  });
  await publish(eventFrom(ctx, 'user.change-email-verified', request.id, { userId: request.userId, requestId: request.id }));
  return { Id: request.id, Status: 'Open' };
}

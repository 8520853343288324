import { requirePermission } from '../../authz/require-permission';
import { onUniqueViolation } from '../../db/errors';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { assertCanManageUsers } from '../users/can-manage';
import { normalizeEmail } from '../users/insert-user';
import { assertIdentityFree } from '../users/identity-uniqueness';
import { requireLiveUserRow } from '../users/repo';
import { approvedUserData, parseChanges } from './changes';
import { requireRequestWithUser, toAdminRequestDto } from './repo';
import type { ChangeRequestDto } from './schemas';

// POST /api/admin/change-requests/{id}/approve and /reject (spec 3.4, 4.7, user:write). Only an
// Open request can be decided (409 ChangeRequest.NotOpen otherwise); the state moves with a
// conditional update, so two administrators deciding at once cannot both win.
function deciderId(ctx: DomainContext): string | null {
  return ctx.actor.kind === 'user' ? ctx.actor.userId : null;
}

/**
 * Applies the requested values in one transaction. Approving rewrites another user's profile, an
 * address included (and the address decides where reset links go), so it follows the
 * no-escalation rule of users/can-manage.ts. The address is checked for uniqueness again: it may
 * have been taken since the request was made. Reset links sent to the old address stop working.
 */
export async function approveChangeRequest(ctx: DomainContext, id: string): Promise<ChangeRequestDto> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  const request = await requireRequestWithUser(db, id);
  if (request.status !== 'Open') throw new AppError('ChangeRequest.NotOpen');
  const changes = parseChanges(request.changes);
  const now = new Date();
  await onUniqueViolation(
    () =>
      db.$transaction(async (tx) => {
        await assertCanManageUsers(ctx, tx, [request.userId]);
        const moved = await tx.userChangeRequest.updateMany({
          where: { id, status: 'Open' },
          data: { status: 'Approved', decidedBy: deciderId(ctx), decidedAt: now, updatedAt: now },
        });
        if (moved.count !== 1) throw new AppError('ChangeRequest.NotOpen');
        const user = await requireLiveUserRow(tx, request.userId);
        const emailChanges = changes.Email !== undefined && normalizeEmail(changes.Email) !== normalizeEmail(user.email);
        if (emailChanges) await assertIdentityFree(tx, { email: changes.Email }, user.id);
        await tx.user.update({ where: { id: user.id }, data: { ...approvedUserData(changes), updatedAt: now } });
        if (emailChanges) {
          await tx.oneTimeSecret.updateMany({
            where: { userId: user.id, purpose: { in: ['password-reset', 'email-verification'] }, usedAt: null },
            data: { usedAt: now },
          });
        }
      }),
    'User.EmailTaken',
  );
  await publish(eventFrom(ctx, 'user.change-approved', id, { userId: request.userId, requestId: id, fields: Object.keys(changes) }));
  return toAdminRequestDto(await requireRequestWithUser(db, id));
}

export async function rejectChangeRequest(ctx: DomainContext, id: string, reason: string | null | undefined): Promise<ChangeRequestDto> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  const request = await requireRequestWithUser(db, id);
  if (request.status !== 'Open') throw new AppError('ChangeRequest.NotOpen');
  const now = new Date();
  const moved = await db.userChangeRequest.updateMany({
    where: { id, status: 'Open' },
    data: { status: 'Rejected', reason: reason?.trim() || null, decidedBy: deciderId(ctx), decidedAt: now, updatedAt: now },
  });
  if (moved.count !== 1) throw new AppError('ChangeRequest.NotOpen');
  await publish(eventFrom(ctx, 'user.change-rejected', id, { userId: request.userId, requestId: id, withReason: Boolean(reason?.trim()) }));
  return toAdminRequestDto(await requireRequestWithUser(db, id));
}

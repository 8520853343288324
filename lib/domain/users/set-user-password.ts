import { hashPassword } from '../../auth/passwords';
import { randomToken } from '../../crypto/tokens';
import { requirePermission } from '../../authz/require-permission';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { endSignIns } from '../sessions/end-sign-ins';
import { assertCanManageUsers } from './can-manage';
import { requireLiveUserRow } from './repo';
import { assertPasswordAllowed } from './password-rules';

// PUT /api/user/{id}/password (spec 4.7): an administrator sets a user's password. The security
// stamp rotates and every session of the user ends (OAuth client sessions and their tokens too), so whoever held the old password is signed out;
// an administrator setting their own keeps the session they are using.
export async function setUserPassword(ctx: DomainContext, id: string, password: string): Promise<void> {
  await requirePermission(ctx, 'user:write');
  const db = await realmDb(ctx.realm);
  const user = await requireLiveUserRow(db, id);
  await assertPasswordAllowed(ctx.realm, password, user);
  const passwordHash = await hashPassword(password);
  await db.$transaction(async (tx) => {
    await assertCanManageUsers(ctx, tx, [id]);
    await tx.user.update({ where: { id }, data: { passwordHash, securityStamp: randomToken(16), updatedAt: new Date() } });
  });
  const keep = ctx.actor.kind === 'user' && ctx.actor.userId === id ? (ctx.actor.sessionId ?? undefined) : undefined;
  const ended = await endSignIns(db, id, keep);
  await publish(eventFrom(ctx, 'user.password-set', id, { userId: id, sessionsRevoked: ended.browserSessions, engineRecordsRevoked: ended.engineRecords }));
}

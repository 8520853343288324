import { hashPassword } from '../../auth/passwords';
import { sha256Hex } from '../../crypto/tokens';
import type { RealmTx } from '../../db/types';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { BUILT_IN_IDS } from '../built-in-ids';
import { createSession } from '../sessions/repo';
import { endSignIns } from '../sessions/end-sign-ins';
import { insertUser, normalizeEmail, normalizeUserName } from '../users/insert-user';
import { assertPasswordAllowed } from '../users/password-rules';
import { inviteStateOf } from './admin-invite-state';

// POST /api/account/bootstrap-admin (spec 3.3): possession of the token is the authorization. The
// invite is consumed with a conditional update inside the transaction, so two racing redemptions
// cannot both succeed. An existing user with the invite's name (the recovery case) gets the new
// password and the Administrators membership instead of a second account.
export async function redeemAdminInvite(
  ctx: DomainContext,
  token: string,
  password: string,
): Promise<{ userId: string; userName: string; sessionToken: string }> {
  const db = await realmDb(ctx.realm);
  const invite = await db.pendingAdminInvite.findUnique({ where: { tokenHash: sha256Hex(token) } });
  const state = inviteStateOf(invite);
  if (state === 'used') throw new AppError('BootstrapInvite.TokenUsed');
  if (state !== 'open' || !invite) throw new AppError('BootstrapInvite.TokenInvalid');
  await assertPasswordAllowed(ctx.realm, password, { userName: invite.userName, email: invite.email });

  const passwordHash = await hashPassword(password);
  const userId = await db.$transaction(async (tx) => {
    const consumed = await tx.pendingAdminInvite.updateMany({ where: { id: invite.id, usedAt: null, revokedAt: null }, data: { usedAt: new Date() } });
    if (consumed.count !== 1) throw new AppError('BootstrapInvite.TokenUsed');
    const id = await upsertAdministrator(tx, {
      userName: invite.userName,
      email: invite.email,
      firstname: invite.firstname,
      lastname: invite.lastname,
      passwordHash,
    });
    await tx.pendingAdminInvite.update({ where: { id: invite.id }, data: { userId: id } });
    return id;
  });
  await endSignIns(db, userId);
  const session = await createSession(db, { userId, amr: ['pwd'], ipAddress: ctx.ip, userAgent: ctx.userAgent, replacesToken: ctx.presentedSessionToken });
  await publish(eventFrom(ctx, 'auth.bootstrap-admin-redeemed', userId, { userId, userName: invite.userName }));
  return { userId, userName: invite.userName, sessionToken: session.token };
}

export async function upsertAdministrator(
  tx: RealmTx,
  u: { userName: string; email: string; firstname?: string | null; lastname?: string | null; passwordHash: string },
): Promise<string> {
  const byName = await tx.user.findUnique({ where: { userNameNormalized: normalizeUserName(u.userName) }, select: { id: true } });
  const byEmail = await tx.user.findUnique({ where: { emailNormalized: normalizeEmail(u.email) }, select: { id: true } });
  if (byName && byEmail && byName.id !== byEmail.id) throw new AppError('User.EmailTaken');
  const existing = byName ?? byEmail;
  let id: string;
  if (existing) {
    id = existing.id;
    await tx.user.update({ where: { id }, data: { passwordHash: u.passwordHash, isActive: true, deletedAt: null, updatedAt: new Date() } });
  } else {
    id = (await insertUser(tx, 'first-administrator', { ...u, emailConfirmed: true })).id;
  }
  await tx.groupMember.upsert({
    where: { groupId_userId: { groupId: BUILT_IN_IDS.administratorsGroup, userId: id } },
    update: {},
    create: { groupId: BUILT_IN_IDS.administratorsGroup, userId: id },
  });
  return id;
}

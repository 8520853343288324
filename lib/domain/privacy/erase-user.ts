import { requirePermission } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmDb, type DomainContext } from '../../realm/context';
import { assertAdministratorsRemain } from '../groups/last-administrator';
import { assertCanManageUsers } from '../users/can-manage';
import { removeLinkedRecords } from './mask-account';
import { scrubSecurityLog, signInNames } from './scrub-security-log';

// DELETE /api/admin/users/{id}/permanent (spec 3.5, 4.7; permission gdpr:admin): irreversible. The
// row goes, and with it, by the database's cascades, its sessions, memberships, passkeys, TOTP,
// linked identities and change requests; what refers to it without a cascade is removed or scrubbed
// first (mask-account.ts), and its security-log entries keep their type and time only. Live,
// soft-deleted and masked users alike; unlike a self-deletion there is no archive.
//
// Everything happens in one transaction, with the no-escalation guard (the actor must hold every
// permission the user holds or could hold) and the last-administrator rule read under the
// permission-graph lock. The erasure itself is recorded with its reason and the actor, but without
// anything about the person beyond their (now meaningless) id.
export async function eraseUser(ctx: DomainContext, userId: string, reason: string): Promise<void> {
  await requirePermission(ctx, 'gdpr:admin');
  if (ctx.actor.kind === 'user' && ctx.actor.userId === userId) throw new AppError('User.CannotEraseSelf');
  const db = await realmDb(ctx.realm);
  await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { id: userId },
      select: { id: true, userName: true, email: true, emailNormalized: true, anonymizedAt: true },
    });
    if (!user) throw new AppError('User.NotFound');
    await assertCanManageUsers(ctx, tx, [user.id]);
    await assertAdministratorsRemain(tx, { removedUserIds: [user.id] });
    await removeLinkedRecords(tx, user);
    // A masked account's names are placeholders: its typed-name entries were scrubbed when it was masked.
    await scrubSecurityLog(tx, { userId: user.id, ownEntries: true, names: user.anonymizedAt ? [] : signInNames(user) });
    await tx.user.delete({ where: { id: user.id }, select: { id: true } });
  });
  await publish(eventFrom(ctx, 'user.erased', userId, { userId, reason }));
}

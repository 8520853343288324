import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { logError } from '../../log/logger';
import { realmDb, type DomainContext } from '../../realm/context';
import { assertAdministratorsRemain } from '../groups/last-administrator';
import { redeemToken } from '../one-time-secrets/one-time-secrets';
import { tokenError } from '../one-time-secrets/token-error';
import { exportArchive } from './export-archive';
import { archiveFileName, type Archive } from './export-data';
import { finishDeletion } from './finish-deletion';
import { maskAccount, removeLinkedRecords } from './mask-account';
import { readPersonalData } from './personal-data';
import { scrubSecurityLog, signInNames } from './scrub-security-log';

// POST /api/auth/confirm-deletion (spec 3.5: pending -> deleted; "the archive is streamed and
// personal data is masked"). The mailed token alone authorises it: the request was made signed in
// and with the password, and the link proves the mailbox.
//
// The order, so that the token is spent exactly once, the masking is all or nothing, and the archive
// is complete:
// 1. One transaction: the token is redeemed (a conditional update: of two concurrent confirmations
//    one wins, the other answers Token.Used and changes nothing); the kinds of data a person has few
//    of are read into memory; then the account is masked, every client session and token family and
//    every browser session ends, and the log entries keyed only by the person's typed name are
//    scrubbed (the name is freed here, so later it could be someone else's).
// 2. The archive streams from that snapshot, and from the rows that grow without bound and wait for
//    it: the browser sessions (revoked, not yet deleted) and the person's security-log entries.
// 3. When the archive is written, or the download abandoned, those rows are deleted and scrubbed
//    (finish-deletion.ts); the answer ends after that. A server that stops in between leaves it to
//    the purge job.
export async function confirmAccountDeletion(ctx: DomainContext, token: string): Promise<Archive> {
  const db = await realmDb(ctx.realm);
  const now = new Date();
  const done = await db.$transaction(async (tx) => {
    const redeemed = await redeemToken(tx, 'account-deletion', token);
    if (!redeemed.ok) throw tokenError(redeemed.reason);
    const userId = redeemed.record.userId;
    const user = userId
      ? await tx.user.findUnique({
          where: { id: userId },
          select: { id: true, userName: true, email: true, emailNormalized: true, isActive: true, deletedAt: true, anonymizedAt: true },
        })
      : null;
    if (!user || !user.isActive || user.deletedAt || user.anonymizedAt) {
      throw new AppError('Token.Invalid', { detail: 'The account is deactivated or already deleted.' });
    }
    await assertAdministratorsRemain(tx, { removedUserIds: [user.id] });
    const data = await readPersonalData(tx, ctx.realm, user.id);
    if (!data) throw new AppError('Token.Invalid');
    const removed = await removeLinkedRecords(tx, user, redeemed.record.id);
    await scrubSecurityLog(tx, { userId: user.id, ownEntries: false, names: signInNames(user) });
    await maskAccount(tx, user.id, now);
    return { userId: user.id, data, removed };
  });

  // The event names the account by its id only; the request's address and browser stay out of the
  // log, as the person's own entries are about to lose theirs.
  const quiet: DomainContext = { ...ctx, actor: { kind: 'anonymous' }, ip: undefined, userAgent: undefined };
  await publish(eventFrom(quiet, 'account.deleted', done.userId, { userId: done.userId, engineRecordsRevoked: done.removed.engineRecords }));

  const stream = exportArchive({
    db,
    userId: done.userId,
    data: done.data,
    onSettled: async () => {
      try {
        await finishDeletion(db, done.userId);
      } catch (e) {
        logError('finishing an account deletion failed; the purge job will', e, { realm: ctx.realm.slug, userId: done.userId });
      }
    },
  });
  return { stream, fileName: archiveFileName(ctx.realm, done.data.exportedAt) };
}

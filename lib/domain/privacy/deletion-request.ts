import { requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { accountDeletionMail } from '../../mail/templates/account-deletion';
import { realmDb, type DomainContext } from '../../realm/context';
import { deliverAccountMail } from '../email-verification/deliver-account-mail';
import { tokenLink } from '../email-verification/verification-link';
import { assertAdministratorsRemain } from '../groups/last-administrator';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { secretPurposes } from '../one-time-secrets/purposes';
import { checkCurrentPassword } from '../passwords/check-current-password';
import { realmMail } from '../realm-mail/realm-mail';
import { limitRate } from '../realm-settings/rate-limit';
import type { DeletionStatus } from './schemas';

// The self-deletion workflow before its confirmation (spec 3.5): no request -> pending (a link is
// mailed) -> no request again when cancelled. The pending request is the live one-time secret of
// purpose `account-deletion`: nothing else records it, so it expires with its link. Until it is
// confirmed the account works as before; the signed-in session stays usable, to cancel.

const PURPOSE = 'account-deletion';
/** The confirmation page the mailed link opens (app/(hosted)/confirm-deletion). */
export const CONFIRM_PAGE = '/confirm-deletion';

export async function accountDeletionStatus(ctx: DomainContext): Promise<DeletionStatus> {
  const me = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const pending = await db.oneTimeSecret.findFirst({
    where: { purpose: PURPOSE, userId: me.userId, usedAt: null, expiresAt: { gt: new Date() } },
    select: { createdAt: true, expiresAt: true },
    orderBy: { createdAt: 'desc' },
  });
  return pending ? { Status: 'Pending', RequestedAt: pending.createdAt, ExpiresAt: pending.expiresAt } : { Status: 'None' };
}

/**
 * POST /api/auth/delete-account. The password, when the account has one, proves the person at the
 * keyboard is the owner (guesses count against the account's allowance); the mailbox is the second
 * proof. A realm's last administrator is told now, not after following the link. A new request
 * replaces a pending one (its link stops working).
 */
export async function requestAccountDeletion(ctx: DomainContext, password: string | null | undefined): Promise<DeletionStatus> {
  const me = requireUser(ctx);
  await limitRate(ctx, 'account-deletion', 'target', me.userId);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({ where: { id: me.userId }, select: { id: true, email: true, isActive: true, deletedAt: true } });
  if (!user || !user.isActive || user.deletedAt) throw new AppError('Auth.Unauthenticated');

  const verdict = await checkCurrentPassword(db, user.id, password);
  if (verdict === 'missing') throw new AppError('Validation.Failed', { errors: { Password: ['Enter your password to confirm it is you.'] } });
  if (verdict === 'wrong') {
    await publish(eventFrom(ctx, 'account.deletion-request-failed', user.id, { success: false, userId: user.id, reason: 'bad-password' }));
    throw new AppError('Password.Incorrect', { errors: { Password: ['The password is not correct.'] } });
  }

  const issued = await db.$transaction(async (tx) => {
    await assertAdministratorsRemain(tx, { removedUserIds: [user.id] });
    return issueSecret(tx, { purpose: PURPOSE, userId: user.id, email: user.email, replacePrevious: true });
  });
  const lifetimeMinutes = secretPurposes[PURPOSE].ttlMinutes;
  const url = tokenLink(ctx.realm, CONFIRM_PAGE, issued.secret);
  const message = await realmMail(ctx, user.email, (branding) => accountDeletionMail(branding, { url, lifetimeMinutes }));
  if (!(await deliverAccountMail(ctx, message, { purpose: PURPOSE, userId: user.id }))) {
    // The link never left: no request is pending.
    await db.oneTimeSecret.deleteMany({ where: { id: issued.id } });
    throw new AppError('Mail.SendFailed');
  }
  await publish(eventFrom(ctx, 'account.deletion-requested', user.id, { userId: user.id, expiresAt: issued.expiresAt.toISOString() }));
  return accountDeletionStatus(ctx);
}

/** POST /api/auth/cancel-deletion: pending -> no request; the mailed link stops working. */
export async function cancelAccountDeletion(ctx: DomainContext): Promise<DeletionStatus> {
  const me = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const { count } = await db.oneTimeSecret.deleteMany({ where: { purpose: PURPOSE, userId: me.userId, usedAt: null, expiresAt: { gt: new Date() } } });
  if (!count) throw new AppError('AccountDeletion.NotPending');
  await publish(eventFrom(ctx, 'account.deletion-cancelled', me.userId, { userId: me.userId }));
  return { Status: 'None' };
}

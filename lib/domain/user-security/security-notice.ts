import { publicOrigin } from '../../config/env';
import { securityNoticeMail, type SecurityNotice } from '../../mail/templates/security-notice';
import type { DomainContext } from '../../realm/context';
import { deliverAccountMail } from '../email-verification/deliver-account-mail';
import { realmMail } from '../realm-mail/realm-mail';

/**
 * Mails the person a notice of an administrator's change to how they sign in. After the commit: the
 * change stands whether or not the mail goes out; a failed send is logged and recorded in the
 * security log (`auth.mail-failed`), never thrown.
 */
export async function mailSecurityNotice(ctx: DomainContext, user: { id: string; email: string }, notice: SecurityNotice): Promise<void> {
  const accountUrl = `${publicOrigin(ctx.realm.primaryDomain)}/account`;
  const message = await realmMail(ctx, user.email, (b) => securityNoticeMail(b, { notice, accountUrl }));
  await deliverAccountMail(ctx, message, { purpose: `security-notice:${notice.kind}`, userId: user.id });
}

/** Whole days from now to a deadline, for the notice (0 when it is due at once). */
export function daysUntil(dueAt: Date | undefined): number | undefined {
  return dueAt === undefined ? undefined : Math.max(0, Math.round((dueAt.getTime() - Date.now()) / 86_400_000));
}

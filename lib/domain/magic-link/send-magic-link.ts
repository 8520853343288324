import { requirePermission } from '../../authz/require-permission';
import { AppError, validationError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { safeContinuation } from '../../web/continuation';
import { deliver } from '../../mail/transport';
import { realmDb, type DomainContext } from '../../realm/context';
import { assertCanManageUsers } from '../users/can-manage';
import { requireLiveUserRow } from '../users/repo';
import { issueMagicLink } from './issue-magic-link';

// POST /api/admin/users/{id}/magic-link (spec 4.7): an administrator mails a user a sign-in link,
// whatever the realm's self-service setting. The answer says until when it is valid, never the
// token. A link signs the user in, so it needs every permission the user holds (no escalation).
export async function sendMagicLinkToUser(ctx: DomainContext, userId: string, redirect: string | undefined): Promise<{ ExpiresAt: Date }> {
  await requirePermission(ctx, 'user:write');
  const continuation = redirect === undefined || redirect === '' ? undefined : safeContinuation(redirect);
  if (redirect && !continuation) throw new AppError('Continuation.Invalid');
  const db = await realmDb(ctx.realm);
  const user = await requireLiveUserRow(db, userId);
  if (!user.isActive) throw validationError({ Id: ['The user is deactivated; activate the account first.'] }, 'The user is deactivated.');
  await assertCanManageUsers(ctx, db, [userId]);
  const { expiresAt, message } = await issueMagicLink(ctx, db, user, { redirect: continuation, via: 'admin' });
  try {
    await deliver(message);
  } catch {
    await publish(eventFrom(ctx, 'auth.mail-failed', userId, { success: false, purpose: 'magic-link', userId }));
    throw new AppError('Mail.SendFailed');
  }
  await publish(eventFrom(ctx, 'user.magic-link-sent', userId, { userId }));
  return { ExpiresAt: expiresAt };
}

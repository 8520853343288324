import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { safeContinuation } from '../../web/continuation';
import { realmDb, type DomainContext } from '../../realm/context';
import { deliverInBackground } from '../email-otp/send-code';
import { withUniformDuration } from '../anti-enumeration/uniform-duration';
import { limitRate } from '../realm-settings/rate-limit';
import { normalizeEmail } from '../users/insert-user';
import { issueMagicLink } from './issue-magic-link';
import { flag } from '../flags/registry';
import { RealmFeatures } from '../realm-settings/features';

// POST /api/account/magic-link/request (spec 4.3, 5.6): self-service, only when the realm turned
// magic links on. Always the same answer after the same time, whether or not an account has the
// address; the mail is sent beside the padded wait. A `redirect` that is not a same-realm relative
// path is refused (400 Continuation.Invalid) whatever the address.
export async function requestMagicLink(ctx: DomainContext, email: string, redirect: string | undefined): Promise<void> {
  if (!(await flag(ctx, RealmFeatures.MagicLink))) throw new AppError('SignIn.MethodDisabled');
  const continuation = redirect === undefined || redirect === '' ? undefined : safeContinuation(redirect);
  if (redirect && !continuation) throw new AppError('Continuation.Invalid');
  const mailbox = normalizeEmail(email);
  await limitRate(ctx, 'magic-link-request', 'target', mailbox);
  await withUniformDuration('magic-link-request', async () => {
    const db = await realmDb(ctx.realm);
    const user = await db.user.findFirst({
      where: { emailNormalized: mailbox, isActive: true, deletedAt: null },
      select: { id: true, userName: true, email: true },
    });
    if (user) {
      const { message } = await issueMagicLink(ctx, db, user, { redirect: continuation, via: 'self' });
      deliverInBackground(ctx, Promise.resolve(message), { purpose: 'magic-link', userId: user.id });
    }
    await publish(eventFrom(ctx, 'auth.magic-link-requested', user?.id, { userId: user?.id, userName: user?.userName, knownAddress: Boolean(user) }));
    return { value: undefined, real: Boolean(user) };
  });
}

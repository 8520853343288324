import { requireUser } from '../../authz/require-permission';
import { AppError } from '../../errors/app-error';
import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { emailVerificationMail } from '../../mail/templates/email-verification';
import { realmMail } from '../realm-mail/realm-mail';
import { realmDb, type DomainContext } from '../../realm/context';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { secretPurposes } from '../one-time-secrets/purposes';
import { limitRate } from '../realm-settings/rate-limit';
import { deliverAccountMail } from './deliver-account-mail';
import { tokenLink } from './verification-link';

// POST /api/account/email/send-verification (spec 4.1): a link to the signed-in user's current
// address. The token is bound to the user and to that address (verify-email.ts refuses it once the
// address has changed), and a new link revokes the earlier ones. Sends are limited per mailbox.
export async function sendEmailVerification(ctx: DomainContext): Promise<void> {
  const actor = requireUser(ctx);
  const db = await realmDb(ctx.realm);
  const user = await db.user.findUnique({ where: { id: actor.userId }, select: { id: true, email: true, emailNormalized: true, emailConfirmed: true } });
  if (!user) throw new AppError('Auth.Unauthenticated');
  if (user.emailConfirmed) throw new AppError('Email.AlreadyConfirmed');
  await limitRate(ctx, 'email-verification', 'target', user.emailNormalized);

  const lifetimeMinutes = secretPurposes['email-verification'].ttlMinutes;
  const { id, secret } = await issueSecret(db, { purpose: 'email-verification', userId: user.id, email: user.emailNormalized, replacePrevious: true });
  const url = tokenLink(ctx.realm, '/verify-email', secret);
  const message = await realmMail(ctx, user.email, (branding) => emailVerificationMail(branding, { url, lifetimeMinutes }));
  if (!(await deliverAccountMail(ctx, message, { purpose: 'email-verification', userId: user.id }))) {
    // The link never left: retire it, and tell the user to try again later.
    await db.oneTimeSecret.updateMany({ where: { id, usedAt: null }, data: { usedAt: new Date() } });
    throw new AppError('Mail.SendFailed');
  }
  await publish(eventFrom(ctx, 'user.email-verification-sent', user.id, { userId: user.id }));
}

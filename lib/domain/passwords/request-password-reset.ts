import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { realmMail } from '../realm-mail/realm-mail';
import { passwordResetMail } from '../../mail/templates/password-reset';
import { publicOrigin } from '../../config/env';
import { realmDb, type DomainContext } from '../../realm/context';
import { deliverAccountMail } from '../email-verification/deliver-account-mail';
import { issueSecret } from '../one-time-secrets/one-time-secrets';
import { secretPurposes } from '../one-time-secrets/purposes';
import { limitRate } from '../realm-settings/rate-limit';
import { normalizeEmail } from '../users/insert-user';
import { assertPasswordsEnabled } from './password-rules';
import { requireResetContinuation } from './reset-continuation';
import { withUniformDuration } from '../anti-enumeration/uniform-duration';

// POST /api/account/forgot-password (spec 4.1, 5.6). The answer is the same, in content and in
// time, whether or not the address belongs to an account: both paths are padded to one duration
// (anti-enumeration/uniform-duration.ts), and the mail is handed to the transport without waiting. A failed send is
// logged and recorded as auth.mail-failed (deliver-account-mail.ts); the caller still hears 200.

function resetLink(origin: string, token: string, redirect: string | undefined): string {
  const url = new URL('/reset-password', origin);
  url.searchParams.set('token', token);
  if (redirect) url.searchParams.set('redirect', redirect);
  return url.toString();
}

export async function requestPasswordReset(ctx: DomainContext, input: { email: string; redirect?: string | null }): Promise<void> {
  await withUniformDuration('forgot-password', async () => {
    await assertPasswordsEnabled(ctx.realm);
    const redirect = requireResetContinuation(input.redirect);
    const mailbox = normalizeEmail(input.email);
    // Counted per mailbox whether or not it has an account, so the 429 tells nothing either.
    await limitRate(ctx, 'forgot-password', 'target', mailbox);

    const db = await realmDb(ctx.realm);
    const user = await db.user.findUnique({
      where: { emailNormalized: mailbox },
      select: { id: true, userName: true, email: true, isActive: true, deletedAt: true },
    });
    if (!user || !user.isActive || user.deletedAt) {
      await publish(eventFrom(ctx, 'auth.password-reset-requested', undefined, { success: false, reason: 'no-active-account' }));
      return { value: undefined, real: false };
    }

    const lifetimeMinutes = secretPurposes['password-reset'].ttlMinutes;
    // The continuation rides in the token's data too: the copy in the link is for the page, the
    // stored one is what the reset answers with, so editing the link cannot change it.
    const { secret } = await issueSecret(db, {
      purpose: 'password-reset',
      userId: user.id,
      email: user.email,
      data: redirect ? { redirect } : undefined,
      replacePrevious: true,
    });
    const url = resetLink(publicOrigin(ctx.realm.primaryDomain), secret, redirect);
    const message = await realmMail(ctx, user.email, (branding) => passwordResetMail(branding, { url, lifetimeMinutes }));
    // Not awaited: the padding bounds the answer's timing; deliverAccountMail never rejects.
    void deliverAccountMail(ctx, message, { purpose: 'password-reset', userId: user.id });
    await publish(eventFrom(ctx, 'auth.password-reset-requested', user.id, { userId: user.id, userName: user.userName, withRedirect: Boolean(redirect) }));
    return { value: undefined, real: true };
  });
}

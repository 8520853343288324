import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { deliver, type MailMessage } from '../../mail/transport';
import { emailOtpCodeMail } from '../../mail/templates/email-otp-code';
import { realmMail } from '../realm-mail/realm-mail';
import type { DomainContext } from '../../realm/context';
import { secretPurposes } from '../one-time-secrets/purposes';

/** The code mail, with the realm's branding and the code's lifetime. */
export function codeMail(ctx: DomainContext, to: string, code: string, secondFactor: boolean): Promise<MailMessage> {
  return realmMail(ctx, to, (b) => emailOtpCodeMail(b, { code, lifetimeMinutes: secretPurposes['email-otp'].ttlMinutes, secondFactor }));
}

/**
 * Sends a sign-in mail beside an anonymous answer, which must neither wait for nor reveal the
 * delivery. A failure is logged by the transport and recorded as `auth.mail-failed` (purpose and
 * user, never the address, code or link).
 */
export function deliverInBackground(ctx: DomainContext, message: Promise<MailMessage>, meta: { purpose: string; userId?: string }): void {
  message.then((m) => deliver(m)).catch(() => publish(eventFrom(ctx, 'auth.mail-failed', meta.userId, { success: false, ...meta })));
}

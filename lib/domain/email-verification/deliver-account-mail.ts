import { publish } from '../../events/bus';
import { eventFrom } from '../../events/event-from';
import { logError } from '../../log/logger';
import { deliver, type MailMessage } from '../../mail/transport';
import type { DomainContext } from '../../realm/context';

// Sending an account mail (reset link, verification link). A failed send is never dropped: it is
// logged (transport.ts logs the error too) and recorded as `auth.mail-failed` in the realm's
// security log, with the purpose and user but neither the address nor the link (the link holds
// the token). Callers decide what the user is told: anonymous flows keep their uniform answer,
// signed-in ones answer 503 Mail.SendFailed.

export type AccountMailMeta = { purpose: string; userId: string; requestId?: string };

/** True when the transport accepted the message. Never throws. */
export async function deliverAccountMail(ctx: DomainContext, message: MailMessage, meta: AccountMailMeta): Promise<boolean> {
  try {
    await deliver(message);
    return true;
  } catch (e) {
    logError('account mail could not be sent', e, { realm: ctx.realm.slug, purpose: meta.purpose, userId: meta.userId });
    await publish(eventFrom(ctx, 'auth.mail-failed', meta.userId, { success: false, ...meta }));
    return false;
  }
}

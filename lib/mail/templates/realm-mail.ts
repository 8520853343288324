import { renderMail, type Branding, type MailContent } from '../layout';
import type { MailMessage } from '../transport';

// A realm's mail: rendered with the branding the domain read for it (lib/domain/realm-mail), from a
// no-reply sender on the realm's primary domain.

function quoted(name: string): string {
  return `"${name.replace(/["\\\r\n]/g, '')}"`;
}

/** The message for `to`, rendered with `branding`, ready for `deliver`. */
export function composeRealmMail(primaryDomain: string, branding: Branding, to: string, build: (branding: Branding) => MailContent): MailMessage {
  const rendered = renderMail(branding, build(branding));
  return { from: `${quoted(branding.senderName ?? branding.productName)} <no-reply@${primaryDomain}>`, to, ...rendered };
}

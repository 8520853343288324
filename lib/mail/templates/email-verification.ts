import type { Branding, MailContent } from '../layout';
import { lifetimeText } from './lifetime';

// Confirming the signed-in user's own address (spec 4.1 email/send-verification).
export function emailVerificationMail(branding: Branding, input: { url: string; lifetimeMinutes: number }): MailContent {
  return {
    subject: `Confirm your e-mail address for ${branding.productName}`,
    heading: 'Confirm your e-mail address',
    paragraphs: [
      `Confirm that this address belongs to you and your ${branding.productName} account with the link below.`,
      `The link is valid for ${lifetimeText(input.lifetimeMinutes)}. Asking for a new one makes this one stop working.`,
    ],
    action: { label: 'Confirm my address', url: input.url },
  };
}

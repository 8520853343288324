import type { Branding, MailContent } from '../layout';
import { lifetimeText } from './lifetime';

// The password-reset link (spec 4.1 forgot-password). The link opens the reset page, which posts
// the token with the address and the new password to /api/account/reset-password.
export function passwordResetMail(branding: Branding, input: { url: string; lifetimeMinutes: number }): MailContent {
  return {
    subject: `Reset your ${branding.productName} password`,
    heading: 'Reset your password',
    paragraphs: [
      'Someone asked to reset the password of the account that uses this e-mail address. If it was you, choose a new password with the link below.',
      `The link is valid for ${lifetimeText(input.lifetimeMinutes)} and works once. Using it signs you out everywhere.`,
    ],
    action: { label: 'Choose a new password', url: input.url },
    footer: 'If you did not ask for this, ignore this message: your password stays as it is.',
  };
}

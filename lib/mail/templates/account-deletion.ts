import type { Branding, MailContent } from '../layout';
import { lifetimeText } from './lifetime';

// The link that confirms a self-deletion (spec 3.5). It says plainly what confirming does, because
// the mailbox is the second proof: whoever holds this link can end the account.
export function accountDeletionMail(branding: Branding, input: { url: string; lifetimeMinutes: number }): MailContent {
  return {
    subject: `Confirm the deletion of your ${branding.productName} account`,
    heading: 'Confirm the deletion of your account',
    paragraphs: [
      `You asked to delete your ${branding.productName} account. When you confirm with the link below, you receive a copy of your data, and then your personal data is erased and you are signed out everywhere. This cannot be undone.`,
      `The link is valid for ${lifetimeText(input.lifetimeMinutes)}. Until you confirm, you can cancel the request on your account page.`,
    ],
    action: { label: 'Review and delete my account', url: input.url },
    footer: 'If you did not ask for this, sign in and cancel the request, and change your password: nothing is deleted without this link.',
  };
}

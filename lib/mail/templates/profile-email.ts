import type { Branding, MailContent } from '../layout';
import { lifetimeText } from './lifetime';

// A profile change request that moves the account to a new address (spec 3.4): the new mailbox
// proves itself before an administrator sees the request.
export function profileEmailMail(branding: Branding, input: { url: string; lifetimeMinutes: number }): MailContent {
  return {
    subject: `Confirm your new e-mail address for ${branding.productName}`,
    heading: 'Confirm your new e-mail address',
    paragraphs: [
      `You asked to change the e-mail address of your ${branding.productName} account to this one. Confirm it with the link below; an administrator then reviews the change.`,
      `The link is valid for ${lifetimeText(input.lifetimeMinutes)}.`,
    ],
    action: { label: 'Confirm my new address', url: input.url },
    footer: 'If you did not ask for this, ignore this message: nothing changes without it.',
  };
}

import type { Branding, MailContent } from '../layout';

// A profile change request asked to move an account to an address another account already holds.
// The person asking hears the same answer as for a free address (anti-enumeration); only this
// mailbox, whose owner holds that other account, learns that nothing will change.
export function profileEmailTakenMail(branding: Branding): MailContent {
  return {
    subject: `Someone asked to use this address on ${branding.productName}`,
    heading: 'This address already has an account',
    paragraphs: [
      `Someone, maybe you, asked to move another ${branding.productName} account to this e-mail address. An account already uses it, so the change cannot be made and nothing changed.`,
      'If you wanted to combine two accounts, ask an administrator.',
    ],
    footer: 'If you did not ask for this, ignore this message: your account is unchanged.',
  };
}

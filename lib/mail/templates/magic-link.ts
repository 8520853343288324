import type { Branding, MailContent } from '../layout';
import { lifetimeText } from './lifetime';

// The magic sign-in link (spec 4.3): requested by the user, or sent by an administrator.
export function magicLinkMail(branding: Branding, input: { url: string; lifetimeMinutes: number; sentByAdministrator?: boolean }): MailContent {
  return {
    subject: `Sign in to ${branding.productName}`,
    heading: `Sign in to ${branding.productName}`,
    paragraphs: [
      input.sentByAdministrator
        ? `An administrator sent you a link to sign in to ${branding.productName}.`
        : `Use the button below to sign in to ${branding.productName}. No password needed.`,
      `The link works once and expires in ${lifetimeText(input.lifetimeMinutes)}. Do not forward this message: anyone with the link can sign in as you.`,
    ],
    action: { label: 'Sign in', url: input.url },
    footer: `If you did not ask for this link, you can ignore this message; nobody can sign in without it.`,
  };
}

import type { Branding, MailContent } from '../layout';
import { lifetimeText } from './lifetime';

// The e-mailed one-time code (spec 4.3): for signing in, or as the second step of a sign-in.
export function emailOtpCodeMail(branding: Branding, input: { code: string; lifetimeMinutes: number; secondFactor?: boolean }): MailContent {
  return {
    subject: `Your ${branding.productName} sign-in code`,
    heading: input.secondFactor ? 'Your verification code' : 'Your sign-in code',
    paragraphs: [
      input.secondFactor ? `Enter this code to finish signing in to ${branding.productName}.` : `Enter this code to sign in to ${branding.productName}.`,
      `The code works once and expires in ${lifetimeText(input.lifetimeMinutes)}. Never share it: nobody from ${branding.productName} will ask you for it.`,
    ],
    code: input.code,
    footer: `If you did not try to sign in, you can ignore this message; your account stays safe.`,
  };
}

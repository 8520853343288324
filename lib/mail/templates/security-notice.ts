import type { Branding, MailContent } from '../layout';

// Notices to a person after an administrator changed how they sign in (spec 4.7 "User
// administration": recovery after a lost device). They carry no link that signs anyone in, only the
// way to the account page, so a notice that reaches the wrong mailbox gives nothing away; and they
// tell the person to speak up when they did not ask for it, the point of a security notice.
export type SecurityNotice = { kind: 'two-factor-reset'; graceDays?: number } | { kind: 'passkeys-removed'; count: number; graceDays?: number };

function graceParagraph(days: number | undefined): string[] {
  if (days === undefined) return [];
  if (days === 0) return ['Your account needs a second factor: you will be asked to set one up when you next sign in.'];
  return [`Your account needs a second factor: set one up within ${days === 1 ? '1 day' : `${days} days`} of your next sign-in.`];
}

export function securityNoticeMail(branding: Branding, input: { notice: SecurityNotice; accountUrl: string }): MailContent {
  const n = input.notice;
  const what =
    n.kind === 'two-factor-reset'
      ? {
          subject: `Your ${branding.productName} two-step sign-in was reset`,
          heading: 'Your two-step sign-in was reset',
          body: 'An administrator turned off two-step sign-in for your account and removed your authenticator app. Codes from that app no longer work.',
        }
      : {
          subject: `${n.count === 1 ? 'A passkey was' : 'Passkeys were'} removed from your ${branding.productName} account`,
          heading: n.count === 1 ? 'A passkey was removed' : 'Your passkeys were removed',
          body: `An administrator removed ${n.count === 1 ? 'a passkey' : `${n.count} passkeys`} from your account. ${n.count === 1 ? 'It no longer signs you in.' : 'They no longer sign you in.'}`,
        };
  return {
    subject: what.subject,
    heading: what.heading,
    paragraphs: [what.body, ...graceParagraph(n.graceDays), 'You can set up a new authenticator app or passkey on your account page.'],
    action: { label: 'Open my account', url: input.accountUrl },
    footer: 'If you did not ask your administrator for this, tell them at once: someone else may be trying to get into your account.',
  };
}

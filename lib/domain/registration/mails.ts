import { publicOrigin } from '../../config/env';
import type { MailContent } from '../../mail/layout';
import { realmMail, type MailScope } from '../realm-mail/realm-mail';
import { deliver } from '../../mail/transport';

// The two mails of self-registration. Both go to the address that was entered, and the answer to
// the request is the same whichever is sent (anti-enumeration). Both carry the branding of the App
// the registration is for (the App whose invite codes were checked).

async function send(scope: MailScope, to: string, content: MailContent): Promise<void> {
  await deliver(await realmMail(scope, to, () => content));
}

export async function sendRegistrationVerification(scope: MailScope, to: string, token: string): Promise<void> {
  const url = `${publicOrigin(scope.realm.primaryDomain)}/register/verify?token=${encodeURIComponent(token)}`;
  await send(scope, to, {
    subject: 'Confirm your e-mail address to finish signing up',
    heading: 'Confirm your e-mail address',
    paragraphs: [
      'Someone, hopefully you, asked to create an account with this e-mail address.',
      'Open the link below within 24 hours to confirm the address. Your account is created when you do.',
    ],
    action: { label: 'Confirm and create my account', url },
    footer: 'If you did not ask for an account, ignore this message and nothing will be created.',
  });
}

export async function sendAlreadyRegistered(scope: MailScope, to: string): Promise<void> {
  const origin = publicOrigin(scope.realm.primaryDomain);
  await send(scope, to, {
    subject: 'You already have an account',
    heading: 'You already have an account',
    paragraphs: [
      'Someone, hopefully you, tried to sign up with this e-mail address, but an account with it already exists. No new account was created.',
      'Sign in with your existing account. If you forgot your password, use "Forgot password" on the sign-in page.',
    ],
    action: { label: 'Sign in', url: `${origin}/login` },
    footer: 'If this was not you, you can ignore this message; your account is unchanged.',
  });
}

/** The user name asked for belongs to someone else: said to the mailbox only, not to the caller. */
export async function sendUserNameTaken(scope: MailScope, to: string, userName: string): Promise<void> {
  const origin = publicOrigin(scope.realm.primaryDomain);
  await send(scope, to, {
    subject: 'Choose another user name to sign up',
    heading: 'That user name is taken',
    paragraphs: [
      `Someone, hopefully you, tried to sign up with this e-mail address and the user name "${userName}", but another account already uses that user name. No account was created.`,
      'Sign up again with another user name.',
    ],
    action: { label: 'Sign up', url: `${origin}/register` },
    footer: 'If this was not you, you can ignore this message; nothing was created.',
  });
}

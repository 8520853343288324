import { publicOrigin } from '../../config/env';
import { renderMail } from '../../mail/layout';
import { deliver } from '../../mail/transport';
import type { RealmRecord } from '../../realm/realm-record';
import { realmSettings } from '../realm-settings/realm-settings';

// The two mails of self-registration. Both go to the address that was entered, and the answer to
// the request is the same whichever is sent (anti-enumeration).

async function send(realm: RealmRecord, to: string, content: Parameters<typeof renderMail>[1]): Promise<void> {
  const s = await realmSettings(realm);
  const productName = s.Branding.ProductName || realm.displayName;
  const mail = renderMail({ productName, primaryColor: s.Branding.PrimaryColor }, content);
  await deliver({ from: `"${productName.replace(/["\\\r\n]/g, '')}" <no-reply@${realm.primaryDomain}>`, to, ...mail });
}

export async function sendRegistrationVerification(realm: RealmRecord, to: string, token: string): Promise<void> {
  const url = `${publicOrigin(realm.primaryDomain)}/register/verify?token=${encodeURIComponent(token)}`;
  await send(realm, to, {
    subject: 'Confirm your e-mail address to finish signing up',
    heading: 'Confirm your e-mail address',
    paragraphs: ['Someone, hopefully you, asked to create an account with this e-mail address.', 'Open the link below within 24 hours to confirm the address. Your account is created when you do.'],
    action: { label: 'Confirm and create my account', url },
    footer: 'If you did not ask for an account, ignore this message and nothing will be created.',
  });
}

export async function sendAlreadyRegistered(realm: RealmRecord, to: string): Promise<void> {
  const origin = publicOrigin(realm.primaryDomain);
  await send(realm, to, {
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

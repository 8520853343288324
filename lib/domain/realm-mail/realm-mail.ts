import type { Branding, MailContent } from '../../mail/layout';
import { composeRealmMail } from '../../mail/templates/realm-mail';
import type { MailMessage } from '../../mail/transport';
import type { RealmRecord } from '../../realm/realm-record';
import { settingsForApp } from '../apps/app-settings';
import { applyEmailBranding } from '../apps/email-branding';
import { BUILT_IN_IDS } from '../built-in-ids';

// A realm's mail: the branding of the App the mail belongs to (its Branding over the realm's:
// ProductName, else the realm's display name, the colour and logo) with that App's EmailBranding
// override on top (docs/mail-branding.md). A DomainContext is a MailScope (its appId is the
// request's App).
export type MailScope = { realm: RealmRecord; appId?: string };

async function mailBranding(scope: MailScope): Promise<Branding> {
  const { realm } = scope;
  // Cached with the App's document; App writes clear it (here and, through the relay, elsewhere).
  const s = await settingsForApp(realm, scope.appId ?? BUILT_IN_IDS.mainApp);
  const base: Branding = {
    productName: s.Branding.ProductName?.trim() || realm.displayName,
    primaryColor: s.Branding.PrimaryColor,
    logoUrl: s.Branding.LogoUrl,
  };
  return applyEmailBranding(base, s.EmailBranding);
}

/** The message for `to`, rendered with the realm's layout and the App's branding, ready for `deliver`. */
export async function realmMail(scope: MailScope, to: string, build: (branding: Branding) => MailContent): Promise<MailMessage> {
  return composeRealmMail(scope.realm.primaryDomain, await mailBranding(scope), to, build);
}

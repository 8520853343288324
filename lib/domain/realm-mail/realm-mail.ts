import type { Branding, MailContent } from '../../mail/layout';
import { composeRealmMail } from '../../mail/templates/realm-mail';
import type { MailMessage } from '../../mail/transport';
import { realmDb } from '../../realm/context';
import type { RealmRecord } from '../../realm/realm-record';
import { applyEmailBranding, parseEmailBrandingOverride } from '../apps/email-branding';
import { BUILT_IN_IDS } from '../built-in-ids';
import { realmSettings } from '../realm-settings/realm-settings';

// A realm's mail: its branding (Branding.ProductName, else the realm's display name, its colour and
// logo) with the EmailBranding override of the App the mail belongs to. A DomainContext is a
// MailScope (its appId is the request's App).
export type MailScope = { realm: RealmRecord; appId?: string };

async function mailBranding(scope: MailScope): Promise<Branding> {
  const { realm } = scope;
  const s = await realmSettings(realm);
  const base: Branding = {
    productName: s.Branding.ProductName?.trim() || realm.displayName,
    primaryColor: s.Branding.PrimaryColor,
    logoUrl: s.Branding.LogoUrl,
  };
  // One primary-key read per mail, not cached: mail is not a hot path, and nothing would tell a
  // cache that an App's settings changed.
  const db = await realmDb(realm);
  const app = await db.app.findUnique({ where: { id: scope.appId ?? BUILT_IN_IDS.mainApp }, select: { settings: true } });
  return applyEmailBranding(base, parseEmailBrandingOverride(app?.settings));
}

/** The message for `to`, rendered with the realm's layout and the App's branding, ready for `deliver`. */
export async function realmMail(scope: MailScope, to: string, build: (branding: Branding) => MailContent): Promise<MailMessage> {
  return composeRealmMail(scope.realm.primaryDomain, await mailBranding(scope), to, build);
}

import { applyEmailBranding, parseEmailBrandingOverride } from '../../domain/apps/email-branding';
import { realmDb } from '../../realm/context';
import { realmSettings } from '../../domain/realm-settings/realm-settings';
import { BUILT_IN_IDS } from '../../domain/realms/seed-realm';
import type { RealmRecord } from '../../realm/realm-record';
import { renderMail, type Branding, type MailContent } from '../layout';
import type { MailMessage } from '../transport';

// A realm's mail: its branding (Branding.ProductName, else the realm's display name, its colour and
// logo) with the EmailBranding override of the App the mail belongs to, and a no-reply sender on
// the realm's primary domain. A DomainContext is a MailScope (its appId is the request's App).
export type MailScope = { realm: RealmRecord; appId?: string };

export async function mailBranding(scope: MailScope): Promise<Branding> {
  const { realm } = scope;
  const s = await realmSettings(realm);
  const base: Branding = { productName: s.Branding.ProductName?.trim() || realm.displayName, primaryColor: s.Branding.PrimaryColor, logoUrl: s.Branding.LogoUrl };
  // One primary-key read per mail, not cached: mail is not a hot path, and nothing would tell a
  // cache that an App's settings changed.
  const db = await realmDb(realm);
  const app = await db.app.findUnique({ where: { id: scope.appId ?? BUILT_IN_IDS.mainApp }, select: { settings: true } });
  return applyEmailBranding(base, parseEmailBrandingOverride(app?.settings));
}

function quoted(name: string): string {
  return `"${name.replace(/["\\\r\n]/g, '')}"`;
}

/** The message for `to`, rendered with the realm's layout and the App's branding, ready for `deliver`. */
export async function realmMail(scope: MailScope, to: string, build: (branding: Branding) => MailContent): Promise<MailMessage> {
  const branding = await mailBranding(scope);
  const rendered = renderMail(branding, build(branding));
  return { from: `${quoted(branding.senderName ?? branding.productName)} <no-reply@${scope.realm.primaryDomain}>`, to, ...rendered };
}

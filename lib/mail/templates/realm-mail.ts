import { realmSettings } from '../../domain/realm-settings/realm-settings';
import type { RealmRecord } from '../../realm/realm-record';
import { renderMail, type Branding, type MailContent } from '../layout';
import type { MailMessage } from '../transport';

// A realm's mail: its branding (Branding.ProductName, else the realm's display name, and its
// colour) and a no-reply sender on its primary domain.
export async function mailBranding(realm: RealmRecord): Promise<Branding> {
  const s = await realmSettings(realm);
  return { productName: s.Branding.ProductName?.trim() || realm.displayName, primaryColor: s.Branding.PrimaryColor };
}

function quoted(name: string): string {
  return `"${name.replace(/["\\\r\n]/g, '')}"`;
}

/** The message for `to`, rendered with the realm's layout, ready for `deliver`. */
export async function realmMail(realm: RealmRecord, to: string, build: (branding: Branding) => MailContent): Promise<MailMessage> {
  const branding = await mailBranding(realm);
  const rendered = renderMail(branding, build(branding));
  return { from: `${quoted(branding.productName)} <no-reply@${realm.primaryDomain}>`, to, ...rendered };
}

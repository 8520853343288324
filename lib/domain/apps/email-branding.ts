import type { Branding } from '../../mail/layout';
import type { AppSettings } from './settings-schema';

// An App's `EmailBranding` section (spec 4.7 "Applications", Settings): the mail branding,
// overridden field by field for mail sent in the App's context. A null or absent field inherits.
// The section is read with the rest of the App's document (app-settings.ts `settingsForApp`): a
// section that no longer validates is treated as absent, so a damaged document never stops a mail.

export type EmailBrandingOverride = NonNullable<AppSettings['EmailBranding']>;

/** The mail branding with the App's override applied (a field it leaves out, null or blank inherits). */
export function applyEmailBranding(base: Branding, override: EmailBrandingOverride): Branding {
  return {
    productName: override.ProductName?.trim() || base.productName,
    primaryColor: override.PrimaryColor || base.primaryColor,
    logoUrl: override.LogoUrl || base.logoUrl,
    senderName: override.SenderName?.trim() || base.senderName,
    footerText: override.FooterText?.trim() || base.footerText,
  };
}

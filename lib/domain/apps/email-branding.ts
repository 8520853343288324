import { z } from 'zod';
import type { Branding } from '../../mail/layout';

// An App's `EmailBranding` section (spec 4.7 "Applications", Settings): the realm's mail branding,
// overridden field by field for mail sent in the App's context. A null or absent field inherits.
// Stored in App.settings (JSON text, PascalCase as the API writes it).
//
// Mail must go out even when the stored document is damaged, so an unreadable document or a field
// that does not validate is treated as absent (inherits) rather than failing the send.

const fields = {
  /** Names the product in the subject, heading, footer and (unless SenderName) the sender. */
  ProductName: z.string().trim().min(1).max(100),
  PrimaryColor: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  /** Shown above the heading in HTML mail. */
  LogoUrl: z.url({ protocol: /^https?$/ }).max(2000),
  /** The From display name; the address stays the realm's no-reply address (SPF/DMARC). */
  SenderName: z.string().trim().min(1).max(100),
  /** An extra footer line, e.g. the company's postal address. */
  FooterText: z.string().trim().min(1).max(500),
};

export type EmailBrandingOverride = { [K in keyof typeof fields]?: z.infer<(typeof fields)[K]> };

/** The valid, non-null fields of `settings.EmailBranding` in an App's stored settings document. */
export function parseEmailBrandingOverride(settingsJson: string | null | undefined): EmailBrandingOverride {
  if (!settingsJson) return {};
  let doc: unknown;
  try {
    doc = JSON.parse(settingsJson);
  } catch {
    return {};
  }
  const section = isRecord(doc) ? doc.EmailBranding : undefined;
  if (!isRecord(section)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(fields)) {
    const parsed = schema.safeParse(section[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  return out;
}

/** The realm's mail branding with the App's override applied (a field it leaves out inherits). */
export function applyEmailBranding(realm: Branding, override: EmailBrandingOverride): Branding {
  return {
    productName: override.ProductName ?? realm.productName,
    primaryColor: override.PrimaryColor ?? realm.primaryColor,
    logoUrl: override.LogoUrl ?? realm.logoUrl,
    senderName: override.SenderName ?? realm.senderName,
    footerText: override.FooterText ?? realm.footerText,
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

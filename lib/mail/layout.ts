// One layout for every mail: the realm's name and colour, a heading, short paragraphs, at most one
// action button whose URL is also written out in full, and a footer. Text and HTML carry the same
// content, so a plain-text reader misses nothing. Branding is the realm's, with an App's
// EmailBranding override applied when the mail belongs to an App (lib/domain/apps/email-branding.ts).
export type Branding = {
  productName: string;
  primaryColor: string;
  /** An http(s) image shown above the heading (HTML only). */
  logoUrl?: string | null;
  /** The From display name; the product name when unset. */
  senderName?: string;
  /** A line added below every footer (an App's postal address, say). */
  footerText?: string;
};

export type MailContent = {
  subject: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** A code to type, shown large (e-mail one-time codes). */
  code?: string;
  footer?: string;
};

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const safeColor = (c: string) => (/^#[0-9a-f]{3,8}$/i.test(c) ? c : '#1f4f8f');

// Settings validate the logo URL already; this keeps a javascript: or data: URL out of mail anyway.
const safeImageUrl = (u: string | null | undefined) => (u && /^https?:\/\//i.test(u) ? u : undefined);

export function renderMail(branding: Branding, content: MailContent): { subject: string; text: string; html: string } {
  const footer = content.footer ?? `You received this message from ${branding.productName}. If you did not expect it, you can ignore it.`;
  const footerText = branding.footerText?.trim();
  const text = [
    content.heading,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.code ? [content.code, ''] : []),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ''] : []),
    '--',
    footer,
    ...(footerText ? [footerText] : []),
  ].join('\n');
  const color = safeColor(branding.primaryColor);
  const logo = safeImageUrl(branding.logoUrl);
  const html = `<!doctype html><html><body style="margin:0;background:#f4f5f7;font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1d2330">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 12px">
<table role="presentation" width="100%" style="max-width:560px;background:#fff;border-radius:8px;border-top:4px solid ${color}" cellpadding="0" cellspacing="0"><tr><td style="padding:28px 32px">
${logo ? `<p style="margin:0 0 12px"><img src="${escape(logo)}" alt="${escape(branding.productName)}" height="40" style="height:40px;max-width:200px;border:0"></p>` : ''}
<p style="margin:0 0 16px;font-size:14px;color:#5b6475">${escape(branding.productName)}</p>
<h1 style="margin:0 0 16px;font-size:22px">${escape(content.heading)}</h1>
${content.paragraphs.map((p) => `<p style="margin:0 0 14px;line-height:1.5">${escape(p)}</p>`).join('\n')}
${content.code ? `<p style="margin:8px 0 18px;font-size:30px;letter-spacing:6px;font-weight:700">${escape(content.code)}</p>` : ''}
${
  content.action
    ? `<p style="margin:20px 0"><a href="${escape(content.action.url)}" style="background:${color};color:#fff;text-decoration:none;padding:12px 20px;border-radius:6px;display:inline-block">${escape(content.action.label)}</a></p>
<p style="margin:0 0 14px;font-size:13px;color:#5b6475;word-break:break-all">${escape(content.action.url)}</p>`
    : ''
}
<p style="margin:24px 0 0;font-size:12px;color:#7a8294">${escape(footer)}</p>
${footerText ? `<p style="margin:8px 0 0;font-size:12px;color:#7a8294">${escape(footerText)}</p>` : ''}
</td></tr></table></td></tr></table></body></html>`;
  return { subject: content.subject, text, html };
}

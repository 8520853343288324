// Branding.LogoUrl as the hosted pages and the engine's pages render it.
/**
 * The realm's logo URL when it is safe to use as an image source: an absolute http(s) URL (the
 * settings schema already insists on it; this guards what a page renders). Anything else, such as
 * `javascript:` or `data:`, is dropped and the initials mark is shown instead.
 */
export function safeLogoUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

// The security headers of every answer, in one place (issue 8 item 8). Three callers, one policy:
// - proxy.ts gives every Next page (hosted pages, console, account area, /swagger, the 404 page) a
//   Content-Security-Policy with a fresh nonce, which Next puts on its own scripts;
// - the OAuth engine's own pages (device flow, logout, errors, form_post) get `engineCsp` before
//   the engine renders, so it can add the hash of its form_post script to script-src;
// - server.ts adds `fallbackCsp` to any other HTML answer that has none, and the plain headers
//   (nosniff, referrer policy, frame denial, HSTS) to every answer.
// Pure functions only: proxy.ts imports this module too.

/** Where images may come from: the realm's logo is any https URL (http too on an http deployment). */
function imgSrc(publicScheme: 'http' | 'https'): string {
  return `img-src 'self' data: blob: https:${publicScheme === 'http' ? ' http:' : ''}`;
}

const COMMON = ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"];

/**
 * Pages whose form posts to the engine, which answers with redirects ending at the client's
 * redirect URI: browsers check form-action along the redirect chain, so these pages cannot have
 * form-action 'self' (the OAuth consent page).
 */
const FORMS_THAT_LEAVE = /^\/consent(\/|$)/;

/** The CSP of a Next page: scripts and styles by nonce ('strict-dynamic' lets Next load its chunks). */
export function pageCsp(options: { nonce: string; dev: boolean; publicScheme: 'http' | 'https'; pathname: string }): string {
  const { nonce, dev } = options;
  return [
    "default-src 'self'",
    // React's development tooling needs eval.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    // A nonce disables 'unsafe-inline', which the development error overlay needs.
    dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    imgSrc(options.publicScheme),
    "font-src 'self'",
    "connect-src 'self'",
    ...(FORMS_THAT_LEAVE.test(options.pathname) ? [] : ["form-action 'self'"]),
    ...COMMON,
  ].join('; ');
}

/**
 * The CSP of the engine's pages: no script but the one form_post auto-submit (the engine adds its
 * hash to script-src), the pages' one inline style by hash. No form-action: form_post submits to
 * the client's redirect URI, which only the engine knows.
 */
export function engineCsp(options: { styleHashes: readonly string[]; publicScheme: 'http' | 'https' }): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${options.styleHashes.map((h) => `'${h}'`).join(' ') || "'none'"}`,
    imgSrc(options.publicScheme),
    ...COMMON,
  ].join('; ');
}

/** Any other HTML: nothing runs, nothing loads but images, nothing frames it. */
export function fallbackCsp(publicScheme: 'http' | 'https'): string {
  return ["default-src 'none'", "style-src 'unsafe-inline'", imgSrc(publicScheme), "form-action 'self'", ...COMMON].join('; ');
}

/** HSTS when the public scheme is https (a year; not includeSubDomains: other hosts are not ours). */
export function hstsHeader(publicScheme: 'http' | 'https'): string | null {
  return publicScheme === 'https' ? 'max-age=31536000' : null;
}

/** The headers server.ts sets on every answer. */
export function baseSecurityHeaders(publicScheme: 'http' | 'https'): Record<string, string> {
  const hsts = hstsHeader(publicScheme);
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    ...(hsts ? { 'strict-transport-security': hsts } : {}),
  };
}

/** True when a Content-Type names an HTML document. */
export function isHtml(contentType: unknown): boolean {
  return /^\s*text\/html\b/i.test(String(Array.isArray(contentType) ? contentType[0] : (contentType ?? '')));
}

// The `?redirect=` continuation of sign-in (spec 4.1): only a relative path on this realm's own
// origin is followed; anything else falls back. Browsers treat `//host` and `/\host` as other
// origins and drop tabs and newlines inside URLs (so `/\t/host` is `//host`), hence the checks on
// the raw string before the URL parser has its say.
const BASE = 'http://gatehouse.invalid';

export function safeRedirect(raw: string | string[] | null | undefined, fallback = '/console'): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || value.length > 2048) return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return fallback;
  if (/[\u0000-\u001f\u007f]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = url.pathname + url.search + url.hash;
  // Never continue back into the sign-in pages themselves.
  if (/^\/(login|logged-out|bootstrap)(\/|$|\?|#)/.test(path)) return fallback;
  return path;
}

// The `redirect` continuation of sign-in flows (spec 4.1): a relative path on the realm's own
// origin. Browsers read `//host` and `/\host` as another origin and drop tabs and newlines inside
// URLs (so `/\t/host` becomes `//host`), so the raw string is checked before the URL parser.
const BASE = 'http://continuation.invalid';

/** The continuation when `value` is a safe same-realm relative path, else undefined. Pure. */
export function safeContinuation(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u0020\u007f]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  const path = url.pathname + url.search + url.hash;
  // Dot segments can collapse into a scheme-relative URL (`/.//evil.test` -> `//evil.test`).
  if (path.startsWith('//') || path.includes('\\')) return undefined;
  return path;
}

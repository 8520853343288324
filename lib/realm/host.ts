// Host-header normalisation (CONTRACT.md "Wire rules"): port removed, lower-cased. Anything that is
// not a syntactically valid host name or IP literal is refused before any lookup, so attacker-chosen
// junk never reaches the database or the caches.
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;
const IPV6 = /^\[[0-9a-f:.]{2,45}\]$/;

/** Returns the normalised host name of a Host header value, or null when it is not a valid host. */
export function normalizeHost(header: string | undefined | null): string | null {
  if (!header) return null;
  let value = header.trim().toLowerCase();
  if (value.length === 0 || value.length > 300) return null;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return null;
    const rest = value.slice(end + 1);
    if (rest && !/^:\d{1,5}$/.test(rest)) return null;
    value = value.slice(0, end + 1);
    return IPV6.test(value) ? value : null;
  }
  const colon = value.indexOf(':');
  if (colon >= 0) {
    if (!/^\d{1,5}$/.test(value.slice(colon + 1))) return null;
    value = value.slice(0, colon);
  }
  if (value.endsWith('.')) value = value.slice(0, -1);
  return HOSTNAME.test(value) ? value : null;
}

/** Whether a string is acceptable as a realm domain (a host name or IP literal, no port). */
export function isValidDomain(domain: string): boolean {
  const n = normalizeHost(domain);
  return n !== null && n === domain.toLowerCase() && !domain.includes(':');
}

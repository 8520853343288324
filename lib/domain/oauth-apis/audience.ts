// An API's audience is its resource indicator (RFC 8707 2): an absolute URI without a fragment, or
// a URN (RFC 8141). It becomes the `aud` of access tokens and, through create-implicit-scope, may
// become a scope name, so it is also kept within scope-token characters (no space, `"` or `\`).

const URN = /^urn:[a-z0-9][a-z0-9-]{0,31}:[^\s]+$/i;
export const MAX_AUDIENCE_LENGTH = 500;

/** Why `audience` cannot be an API's audience, or undefined when it can. */
export function audienceProblem(audience: string): string | undefined {
  if (audience.length > MAX_AUDIENCE_LENGTH) return 'is too long.';
  if (!/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(audience)) return 'must be printable ASCII without spaces, " or \\.';
  if (audience.includes('#')) return 'must not contain a fragment.';
  if (/^urn:/i.test(audience)) return URN.test(audience) ? undefined : 'must be a URN of the form urn:<namespace>:<name>.';
  let url: URL;
  try {
    url = new URL(audience);
  } catch {
    return 'must be an absolute URI (https://api.example.com) or a URN (urn:example:api).';
  }
  if ((url.protocol === 'https:' || url.protocol === 'http:') && !url.hostname) return 'must name a host.';
  if (url.username || url.password) return 'must not contain user information.';
  return undefined;
}

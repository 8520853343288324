// Which redirect URIs a client may register (RFC 6749 3.1.2, RFC 8252 7, OAuth 2.0 Security BCP
// 4.1): absolute, no fragment, no user info, no wildcard. https anywhere; http only on a loopback
// host (native apps and development); otherwise a private-use scheme in reverse-domain form
// (com.example.app:/cb), which also keeps javascript:, data: and file: out. Pure, so it is tested
// without storage and shared by post-logout redirect URIs.

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** RFC 8252 7.1: a private-use scheme is a reverse domain name, so it holds at least one dot. */
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

export const MAX_REDIRECT_URI_LENGTH = 2000;

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost');
}

/** Why `uri` cannot be registered, or undefined when it can. */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return 'is too long.';
  if (/[\s*]/.test(uri)) return 'must not contain spaces or wildcards.';
  if (uri.includes('#')) return 'must not contain a fragment.';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URI.';
  }
  if (url.username || url.password) return 'must not contain user information.';
  if (url.protocol === 'https:') return url.hostname ? undefined : 'must name a host.';
  if (url.protocol === 'http:') return isLoopback(url.hostname) ? undefined : 'may use http only for localhost, 127.0.0.1 or [::1]; use https.';
  return PRIVATE_USE_SCHEME.test(url.protocol)
    ? undefined
    : 'must use https, http on a loopback host, or a private-use scheme such as com.example.app:/callback.';
}

/** Field errors for a list of redirect URIs: one message per URI that cannot be registered. */
export function redirectUriErrors(uris: readonly string[]): string[] {
  return uris.flatMap((u) => {
    const problem = redirectUriProblem(u);
    return problem ? [`${u} ${problem}`] : [];
  });
}

import * as oidc from 'openid-client';
import { sha256Hex } from '../../../crypto/tokens';
import { shared } from '../../../runtime/shared';
import type { OidcSection } from '../sections';
import { UpstreamOidcError, upstreamFailure } from './upstream-oidc-error';

// openid-client's Configuration for one OIDC login provider: the upstream's discovery document and
// the client's credentials. Discovery is cached so a sign-in costs no extra round trip, keyed by the
// provider's version (every change bumps it, so an edit is seen at once on every instance) and kept
// ten minutes so an upstream's rotated endpoints and keys are picked up without a restart. Failures
// are not cached: the next sign-in tries again.

export type UpstreamOidcConfig = {
  providerId: string;
  /** The login provider's version: a new version is discovered afresh. */
  version: number;
  section: OidcSection;
  /** Set: the client authenticates with client_secret_basic. Unset: a public client, PKCE only. */
  clientSecret: string | undefined;
  /** http:// upstreams on any host (a server setting for test set-ups). Loopback hosts are always allowed. */
  allowHttp?: boolean;
  /** Replaces fetch for every request to the upstream (tests that reach a host name through 127.0.0.1). */
  fetchImpl?: oidc.CustomFetch;
  /** Per request to the upstream; default 10. */
  timeoutSeconds?: number;
};

const TTL_MS = 10 * 60_000;
/** Providers are rows of realm databases, so the key space is bounded; this bounds it per process too. */
const MAX_ENTRIES = 1000;
const DEFAULT_TIMEOUT_SECONDS = 10;
/** Every endpoint the sign-in and logout use; each must be https unless http is allowed for its host. */
const ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri', 'end_session_endpoint'] as const;

type Entry = { client: Promise<oidc.Configuration>; expiresAt: number };
// On globalThis: the route handlers (Next's bundle) and the engine (server.ts) share one cache (docs/architecture.md).
const cache = () => shared('external-identity.upstream-oidc-clients', () => new Map<string, Entry>());

/** Traffic to these hosts never leaves the machine, so TLS adds nothing there (compare RFC 8252 7.3). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || /^127(\.\d{1,3}){3}$/.test(h);
}

function schemeAllowed(url: URL, cfg: UpstreamOidcConfig): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && (cfg.allowHttp === true || isLoopbackHost(url.hostname)));
}

async function discover(cfg: UpstreamOidcConfig): Promise<oidc.Configuration> {
  if (!URL.canParse(cfg.section.Authority)) throw new UpstreamOidcError('discovery failed: the Authority is not a URL');
  const authority = new URL(cfg.section.Authority);
  if (!schemeAllowed(authority, cfg)) throw new UpstreamOidcError('discovery failed: the Authority must use https');
  const auth = cfg.clientSecret ? oidc.ClientSecretBasic(cfg.clientSecret) : oidc.None();
  let client: oidc.Configuration;
  try {
    client = await oidc.discovery(authority, cfg.section.ClientId, undefined, auth, {
      timeout: cfg.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
      // openid-client refuses http:// outright; schemeAllowed has vetted the Authority, and every
      // endpoint is vetted below.
      execute: authority.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      ...(cfg.fetchImpl ? { [oidc.customFetch]: cfg.fetchImpl } : {}),
    });
  } catch (err) {
    throw upstreamFailure('discovery failed', err);
  }
  const metadata = client.serverMetadata();
  if (!metadata.authorization_endpoint || !metadata.token_endpoint)
    throw new UpstreamOidcError('discovery failed: the upstream names no authorization or token endpoint');
  for (const name of ENDPOINTS) {
    const value = metadata[name];
    if (value !== undefined && !(URL.canParse(value) && schemeAllowed(new URL(value), cfg))) {
      throw new UpstreamOidcError(`discovery failed: the upstream's ${name} must be an https URL`);
    }
  }
  return client;
}

function dropStale(entries: Map<string, Entry>, now: number): void {
  for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  // Oldest first (insertion order) when the bound is reached.
  for (const key of entries.keys()) {
    if (entries.size < MAX_ENTRIES) break;
    entries.delete(key);
  }
}

/** The upstream's client configuration: discovered once per provider version and ten minutes. Throws UpstreamOidcError. */
export async function upstreamClient(cfg: UpstreamOidcConfig): Promise<oidc.Configuration> {
  // The digest covers what the configuration is built from, in case a change reaches here without a new version.
  const inputs = sha256Hex(JSON.stringify([cfg.section.Authority, cfg.section.ClientId, cfg.clientSecret ?? null, cfg.allowHttp === true]));
  const key = `${cfg.providerId}:${cfg.version}:${inputs}`;
  const entries = cache();
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && hit.expiresAt > now) return hit.client;
  dropStale(entries, now);
  const entry: Entry = { client: discover(cfg), expiresAt: now + TTL_MS };
  entries.set(key, entry);
  entry.client.catch(() => {
    if (entries.get(key) === entry) entries.delete(key);
  });
  return entry.client;
}

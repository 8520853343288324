import * as oidc from 'openid-client';
import { sha256Hex } from '../../../crypto/tokens';
import { addressPermitted, canonicalAddress, hostListed, type AllowList } from '../../../outbound/address-policy';
import { outboundAllowList, outboundFetch } from '../../../outbound/outbound-fetch';
import { shared } from '../../../runtime/shared';
import type { OidcSection } from '../sections';
import { UpstreamOidcError, upstreamFailure } from './upstream-oidc-error';

// openid-client's Configuration for one OIDC login provider: the upstream's discovery document and
// the client's credentials. Discovery is cached so a sign-in costs no extra round trip, keyed by the
// provider's version (every change bumps it, so an edit is seen at once on every instance) and kept
// ten minutes so an upstream's rotated endpoints and keys are picked up without a restart. Failures
// are not cached: the next sign-in tries again.
//
// Every request to the upstream (discovery, token, userinfo, JWKS) goes through the outbound policy
// (lib/outbound, CONTRACT.md "Outbound policy"): a tenant's administrator chooses the Authority, and
// the upstream chooses the endpoints, so neither may aim the server at loopback, private, link-local
// or metadata addresses the operator has not listed in GATEHOUSE_OUTBOUND_ALLOW. Plain http is for
// those listed hosts only (a test peer, an upstream on the operator's own network); anywhere else an
// http Authority is refused when it is saved (login-providers/provider-settings.ts).

export type UpstreamOidcConfig = {
  providerId: string;
  /** The login provider's version: a new version is discovered afresh. */
  version: number;
  section: OidcSection;
  /** Set: the client authenticates with client_secret_basic. Unset: a public client, PKCE only. */
  clientSecret: string | undefined;
  /** The operator's GATEHOUSE_OUTBOUND_ALLOW unless given (tests). */
  allow?: AllowList;
  /** The fetch under the outbound policy's dispatcher (tests count or fail requests with it); Node's by default. */
  fetchImpl?: oidc.CustomFetch;
  /** Per request to the upstream; default 10. */
  timeoutSeconds?: number;
};

const TTL_MS = 10 * 60_000;
/** Providers are rows of realm databases, so the key space is bounded; this bounds it per process too. */
const MAX_ENTRIES = 1000;
const DEFAULT_TIMEOUT_SECONDS = 10;
/** Every endpoint the sign-in and logout use; each must be https unless its host is listed in GATEHOUSE_OUTBOUND_ALLOW. */
const ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri', 'end_session_endpoint'] as const;

type Entry = { client: Promise<oidc.Configuration>; expiresAt: number };
// On globalThis: the route handlers (Next's bundle) and the engine (server.ts) share one cache (docs/architecture.md).
const cache = () => shared('external-identity.upstream-oidc-clients', () => new Map<string, Entry>());

/**
 * What is wrong with an upstream URL the server will call, if anything: https is required unless the
 * operator lists the host in GATEHOUSE_OUTBOUND_ALLOW, and an address written in the URL must be one
 * the policy permits (a host name is checked when it is connected to).
 */
export function upstreamUrlProblem(value: string, allow: AllowList): 'not-a-url' | 'https-required' | 'not-allowed' | undefined {
  if (!URL.canParse(value)) return 'not-a-url';
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'https-required';
  if (url.protocol === 'http:' && !hostListed(allow, url.hostname)) return 'https-required';
  if (canonicalAddress(url.hostname) && !addressPermitted(allow, url.hostname, url.hostname)) return 'not-allowed';
  return undefined;
}

async function discover(cfg: UpstreamOidcConfig): Promise<oidc.Configuration> {
  const allow = cfg.allow ?? outboundAllowList();
  const problem = upstreamUrlProblem(cfg.section.Authority, allow);
  if (problem === 'not-a-url') throw new UpstreamOidcError('discovery failed: the Authority is not a URL');
  if (problem === 'https-required') throw new UpstreamOidcError('discovery failed: the Authority must use https');
  if (problem === 'not-allowed') throw new UpstreamOidcError('discovery failed: the address is not allowed');
  const authority = new URL(cfg.section.Authority);
  const auth = cfg.clientSecret ? oidc.ClientSecretBasic(cfg.clientSecret) : oidc.None();
  let client: oidc.Configuration;
  try {
    client = await oidc.discovery(authority, cfg.section.ClientId, undefined, auth, {
      timeout: cfg.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
      // openid-client refuses http:// outright; upstreamUrlProblem has vetted the Authority, and
      // every endpoint is vetted below.
      execute: authority.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      [oidc.customFetch]: outboundFetch(allow, cfg.fetchImpl as typeof fetch | undefined) as oidc.CustomFetch,
    });
  } catch (err) {
    throw upstreamFailure('discovery failed', err);
  }
  const metadata = client.serverMetadata();
  if (!metadata.authorization_endpoint || !metadata.token_endpoint)
    throw new UpstreamOidcError('discovery failed: the upstream names no authorization or token endpoint');
  for (const name of ENDPOINTS) {
    const value = metadata[name];
    const endpointProblem = value === undefined ? undefined : upstreamUrlProblem(value, allow);
    if (endpointProblem === 'not-allowed') throw new UpstreamOidcError(`discovery failed: the upstream's ${name} is at an address that is not allowed`);
    if (endpointProblem) throw new UpstreamOidcError(`discovery failed: the upstream's ${name} must be an https URL`);
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
  const inputs = sha256Hex(JSON.stringify([cfg.section.Authority, cfg.section.ClientId, cfg.clientSecret ?? null, (cfg.allow ?? outboundAllowList()).entries]));
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

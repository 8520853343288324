import { settings } from '../config/env';
import { logWarn } from '../log/logger';
import { rememberFailedFetch } from './fetch-failures';

// The engine's outbound requests (configuration `fetch`): Client ID Metadata Documents, and the
// jwks_uri and sector_identifier_uri of clients. oidc-provider hands every call a 2.5 s timeout and
// a dispatcher that closes connections to private, loopback, link-local and other special-use
// addresses once they resolve (SSRF, checked on the connected socket, so DNS rebinding does not get
// past it). GATEHOUSE_CIMD_ALLOW_PRIVATE_NETWORKS=1 drops that dispatcher, for development and tests
// whose metadata is served from this machine. Failures are logged without the query string (a
// client_id URL should have none, and a query is where a secret would be).
//
// A URL whose fetch failed (no answer, a timeout, a status other than 200) is remembered for a
// while (fetch-failures.ts): the engine looks a client up twice when the first lookup fails (once
// more to render the error), and anyone may make the realm fetch a URL of their choosing, so a slow
// or dead host is not asked again and again (cimd.ts consults `failedRecently` before each fetch).

const urlOf = (input: string | URL | Request) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

export type EngineFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What is logged of a fetched URL: its origin and path. */
export function loggableUrl(input: string | URL | Request): string {
  try {
    const url = new URL(urlOf(input));
    return `${url.origin}${url.pathname}`;
  } catch {
    return '(unparseable URL)';
  }
}

/** Why a fetch failed, in words that carry nothing but the kind of failure. */
export function fetchFailureReason(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? 'failed';
}

export function engineFetch(realmSlug: string, allowPrivateNetworks = settings().cimdAllowPrivateNetworks): EngineFetch {
  return async (input, init) => {
    const options = { ...init } as RequestInit & { dispatcher?: unknown };
    if (allowPrivateNetworks) delete options.dispatcher;
    try {
      const res = await globalThis.fetch(input, options);
      if (res.status !== 200) {
        await rememberFailedFetch(urlOf(input));
        logWarn('oauth engine fetch answered other than 200', { realm: realmSlug, url: loggableUrl(input), status: res.status });
      }
      return res;
    } catch (error) {
      await rememberFailedFetch(urlOf(input));
      logWarn('oauth engine fetch failed', { realm: realmSlug, url: loggableUrl(input), reason: fetchFailureReason(error) });
      throw error;
    }
  };
}

import { logWarn } from '../log/logger';
import type { AllowList } from '../outbound/address-policy';
import { isOutboundRefusal } from '../outbound/guarded-socket';
import { outboundAllowList, outboundFetch } from '../outbound/outbound-fetch';
import { rememberFailedFetch } from './fetch-failures';

// The engine's outbound requests (configuration `fetch`): Client ID Metadata Documents, the jwks_uri
// and sector_identifier_uri of clients, back-channel logout and CIBA notifications. oidc-provider
// hands every call a 2.5 s timeout and a dispatcher of its own; that dispatcher is replaced by the
// outbound policy's (lib/outbound: no loopback, private, link-local or metadata address unless
// GATEHOUSE_OUTBOUND_ALLOW lists it, checked before connecting and on the connected socket), the
// one every outbound call a tenant aims goes through. Failures are logged without the query string
// (a client_id URL should have none, and a query is where a secret would be).
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
  if (isOutboundRefusal(error)) return 'the address is not allowed';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? 'failed';
}

export function engineFetch(realmSlug: string, allow: AllowList = outboundAllowList()): EngineFetch {
  const guarded = outboundFetch(allow);
  return async (input, init) => {
    try {
      const res = await guarded(input, init);
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

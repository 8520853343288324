import type { SamlIdp } from './idp-settings';
import { cacheProviderOver, type RequestIdStore } from './request-id-store';
import { samlFor, type SpUrls } from './sp-config';
import type { SpKeyPair } from './sp-key-pair';

/** SAML bindings 3.4.3 and 3.5.3: RelayState "MUST NOT exceed 80 bytes". */
const RELAY_STATE_MAX_BYTES = 80;

/**
 * The IdP URL that carries a signed AuthnRequest by the HTTP-Redirect binding (query signature,
 * RSA-SHA256). The request's ID is remembered in `store`: the response must answer it, once.
 */
export async function samlLoginRedirectUrl(idp: SamlIdp, urls: SpUrls, keys: SpKeyPair, store: RequestIdStore, relayState?: string): Promise<string> {
  if (relayState !== undefined && Buffer.byteLength(relayState, 'utf8') > RELAY_STATE_MAX_BYTES)
    throw new Error(`RelayState may be at most ${RELAY_STATE_MAX_BYTES} bytes (SAML bindings 3.4.3); keep the return URL on our side and send a key.`);
  return samlFor(idp, urls, cacheProviderOver(store), keys).getAuthorizeUrlAsync(relayState ?? '', undefined, {});
}

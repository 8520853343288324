import { SAML, ValidateInResponseTo, type CacheProvider, type SamlConfig } from '@node-saml/node-saml';
import type { SamlIdp } from './idp-settings';
import type { SpKeyPair } from './sp-key-pair';

// One node-saml configuration for both halves of a sign-in (the AuthnRequest and the response), so
// what we ask for and what we check cannot drift apart.

/** CONTRACT.md "External identity": entity id `<realm origin>/saml/<slug>`, ACS `<realm origin>/saml/<slug>/acs`. */
export type SpUrls = { entityId: string; acsUrl: string };

export function spUrlsFor(realmOrigin: string, slug: string): SpUrls {
  const entityId = `${realmOrigin.replace(/\/+$/, '')}/saml/${encodeURIComponent(slug)}`;
  return { entityId, acsUrl: `${entityId}/acs` };
}

/** Clocks of the IdP and of this server may differ this much (NotBefore, NotOnOrAfter). */
export const ACCEPTED_CLOCK_SKEW_MS = 60_000;

/**
 * node-saml's options for this SP and IdP, as plain data (strings, booleans, numbers): the
 * validation worker (validate-worker.mjs) receives them as they are and adds its own cache provider.
 */
export function samlOptionsFor(idp: SamlIdp, urls: SpUrls) {
  return {
    issuer: urls.entityId,
    callbackUrl: urls.acsUrl,
    entryPoint: idp.ssoUrl,
    idpCert: idp.certificates,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'sha256',
    authnRequestBinding: 'HTTP-Redirect',
    // No NameID format and no authentication context are demanded: an IdP that cannot meet a demand
    // refuses the sign-in, and each IdP has its own. The NameID the IdP chooses is checked after.
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    // Assertions must be signed; a signature on the Response around them is accepted but not
    // required, since many IdPs sign only the assertion. What we read comes only from the signed
    // assertion (node-saml returns the signed bytes), and the unsigned envelope is checked apart.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    audience: urls.entityId,
    acceptedClockSkewMs: ACCEPTED_CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
  } satisfies SamlConfig;
}

export type SamlOptions = ReturnType<typeof samlOptionsFor>;

/** The SP that signs AuthnRequests (login-redirect.ts); the response is checked in the worker. */
export function samlFor(idp: SamlIdp, urls: SpUrls, cacheProvider: CacheProvider, keys: SpKeyPair): SAML {
  return new SAML({ ...samlOptionsFor(idp, urls), privateKey: keys.privateKeyPem, cacheProvider });
}

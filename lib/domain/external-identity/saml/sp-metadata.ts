import { generateServiceProviderMetadata } from '@node-saml/node-saml';
import type { SpUrls } from './sp-config';
import type { SpKeyPair } from './sp-key-pair';

/**
 * The SP's metadata for the IdP's administrator: our entity id, the one ACS (HTTP-POST), our signing
 * certificate, AuthnRequestsSigned and WantAssertionsSigned. No SingleLogoutService and no
 * encryption key: the spec refuses Single Logout, and assertions are not accepted encrypted.
 */
export function spMetadataXml(urls: SpUrls, keys: SpKeyPair): string {
  return generateServiceProviderMetadata({
    issuer: urls.entityId,
    callbackUrl: urls.acsUrl,
    privateKey: keys.privateKeyPem,
    publicCerts: [keys.certificatePem],
    signatureAlgorithm: 'sha256',
    wantAssertionsSigned: true,
    // A stable identifier is what an external link (issuer, subject) needs.
    identifierFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  });
}

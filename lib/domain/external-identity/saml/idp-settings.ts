import { X509Certificate } from 'node:crypto';
import type { SamlSection } from '../sections';
import { childElement, childElements, parseXmlSafely, SAML_METADATA_NS, XMLDSIG_NS } from './safe-xml';

// What the SP needs to know about its IdP, from the provider's SAML section (CONTRACT.md "External
// identity"): the IdP's metadata document, or its entity id, SSO URL and certificate typed in.

export type SamlIdp = {
  entityId: string;
  /** The SingleSignOnService of the HTTP-Redirect binding: where the browser takes our AuthnRequest. */
  ssoUrl: string;
  /** PEM certificates whose keys may sign responses (several during a rollover). */
  certificates: string[];
};

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export function resolveIdp(section: SamlSection): SamlIdp {
  const idp = section.IdpMetadataXml?.trim() ? fromMetadata(section.IdpMetadataXml) : fromFields(section);
  if (!/^https?:\/\//i.test(idp.ssoUrl) || !URL.canParse(idp.ssoUrl)) throw new Error(`The IdP single sign-on URL is not an http(s) URL: ${idp.ssoUrl}`);
  return idp;
}

function fromFields(section: SamlSection): SamlIdp {
  const missing = [!section.IdpEntityId && 'IdpEntityId', !section.IdpSsoUrl && 'IdpSsoUrl', !section.IdpCertificate && 'IdpCertificate'].filter(Boolean);
  if (missing.length) throw new Error(`The SAML provider needs IdpMetadataXml, or IdpEntityId, IdpSsoUrl and IdpCertificate (missing: ${missing.join(', ')}).`);
  const certificates = [...section.IdpCertificate!.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g)].map((m) =>
    certificatePem(m[1]),
  );
  if (!certificates.length) throw new Error('IdpCertificate holds no PEM certificate.');
  return { entityId: section.IdpEntityId!.trim(), ssoUrl: section.IdpSsoUrl!.trim(), certificates };
}

function fromMetadata(xml: string): SamlIdp {
  const doc = parseXmlSafely(xml, 'IdP metadata');
  const root = doc.documentElement;
  if (root.namespaceURI !== SAML_METADATA_NS) throw new Error('The IdP metadata is not a SAML 2.0 metadata document.');
  // An aggregate (EntitiesDescriptor) is accepted when exactly one of its entities is an IdP.
  const entities = root.localName === 'EntityDescriptor' ? [root] : root.localName === 'EntitiesDescriptor' ? descendants(root, 'EntityDescriptor') : [];
  const idps = entities.flatMap((entity) => childElements(entity, SAML_METADATA_NS, 'IDPSSODescriptor').map((descriptor) => ({ entity, descriptor })));
  if (idps.length !== 1)
    throw new Error(idps.length ? 'The metadata describes several IdPs; paste the EntityDescriptor of one.' : 'The metadata has no IDPSSODescriptor.');
  const { entity, descriptor } = idps[0];

  const entityId = entity.getAttribute('entityID')?.trim();
  if (!entityId) throw new Error('The IdP metadata has no entityID.');
  if (!(descriptor.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes('urn:oasis:names:tc:SAML:2.0:protocol'))
    throw new Error('The IdP metadata does not announce SAML 2.0.');

  const sso = childElements(descriptor, SAML_METADATA_NS, 'SingleSignOnService').find((s) => s.getAttribute('Binding') === REDIRECT_BINDING);
  const ssoUrl = sso?.getAttribute('Location')?.trim();
  if (!ssoUrl) throw new Error('The IdP metadata has no SingleSignOnService for the HTTP-Redirect binding.');

  // Keys for signing: KeyDescriptors with use="signing" or without a use (SAML metadata 2.4.1.1).
  const certificates = childElements(descriptor, SAML_METADATA_NS, 'KeyDescriptor')
    .filter((k) => (k.getAttribute('use') || 'signing') === 'signing')
    .flatMap((k) => {
      const keyInfo = childElement(k, XMLDSIG_NS, 'KeyInfo');
      return keyInfo ? childElements(keyInfo, XMLDSIG_NS, 'X509Data') : [];
    })
    .flatMap((data) => childElements(data, XMLDSIG_NS, 'X509Certificate'))
    .map((c) => certificatePem(c.textContent ?? ''));
  if (!certificates.length) throw new Error('The IdP metadata has no signing certificate.');
  return { entityId, ssoUrl, certificates: [...new Set(certificates)] };
}

function descendants(root: Element, localName: string): Element[] {
  return Array.from(root.getElementsByTagNameNS(SAML_METADATA_NS, localName));
}

/** A base64 certificate body (any whitespace) as strict PEM. */
function certificatePem(body: string): string {
  const b64 = body.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw new Error('An IdP certificate is not base64.');
  const pem = `-----BEGIN CERTIFICATE-----\n${(b64.match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----`;
  try {
    new X509Certificate(pem);
  } catch {
    throw new Error('An IdP certificate is not a valid X.509 certificate.');
  }
  return pem;
}

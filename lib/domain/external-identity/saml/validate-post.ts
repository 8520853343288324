import { SamlStatusError } from '@node-saml/node-saml';
import type { SamlIdp } from './idp-settings';
import { REJECTION, reasonForLibraryError, SamlRejectedError } from './rejected';
import { cacheProviderOver, REQUEST_ID_LIFETIME_MS, type RequestIdStore } from './request-id-store';
import { childElement, childElements, parseXmlSafely, SAML_ASSERTION_NS, SAML_PROTOCOL_NS } from './safe-xml';
import { ACCEPTED_CLOCK_SKEW_MS, samlFor, type SpUrls } from './sp-config';

// The ACS (HTTP-POST binding): the one way a SAML sign-in comes back. node-saml checks the XML
// signature (the assertion must be signed, by a key of the IdP's certificates), the conditions'
// time window, the audience and the one-time InResponseTo; this module checks what it leaves out:
// the message kind (IdP-initiated SSO, Single Logout and Artifact are refused, as the spec says),
// the Destination and the signed Recipient (our ACS), the signed InResponseTo, the Issuer.

export type SamlAssertion = {
  /** The IdP's entity id (the assertion's Issuer). */
  issuer: string;
  nameId: string;
  nameIdFormat?: string;
  /** Attribute Name → value, or values when the IdP sent several. Only from the signed assertion. */
  attributes: Record<string, string | string[]>;
  sessionIndex?: string;
};

/** The form fields of the POST. Only SAMLResponse is accepted; the others are named to be refused clearly. */
export type AcsPostBody = { SAMLResponse?: string; SAMLRequest?: string; SAMLart?: string };

const MAX_RESPONSE_BYTES = 512 * 1024;
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
/** Assertion IDs are remembered in the same store under this prefix, to tell a replay from a stranger. */
const USED_ASSERTION = 'used-assertion:';

export async function validateSamlPost(idp: SamlIdp, urls: SpUrls, store: RequestIdStore, body: AcsPostBody): Promise<SamlAssertion> {
  if (body.SAMLart) throw new SamlRejectedError(REJECTION.artifact);
  // An IdP posts a request to an SP only to log it out.
  if (body.SAMLRequest) throw new SamlRejectedError(REJECTION.singleLogout);
  if (!body.SAMLResponse) throw new SamlRejectedError(REJECTION.noResponse);

  const xml = decodeBase64(body.SAMLResponse);
  let doc: Document;
  try {
    doc = parseXmlSafely(xml, 'SAML response');
  } catch (e) {
    throw new SamlRejectedError(REJECTION.malformed, (e as Error).message);
  }
  const root = doc.documentElement;
  if (root.namespaceURI !== SAML_PROTOCOL_NS) throw new SamlRejectedError(REJECTION.notAResponse);
  if (root.localName === 'LogoutResponse' || root.localName === 'LogoutRequest') throw new SamlRejectedError(REJECTION.singleLogout);
  if (root.localName === 'ArtifactResponse') throw new SamlRejectedError(REJECTION.artifact);
  if (root.localName !== 'Response') throw new SamlRejectedError(REJECTION.notAResponse);

  const inResponseTo = root.getAttribute('InResponseTo') ?? '';
  if (!inResponseTo) throw new SamlRejectedError(REJECTION.idpInitiated);
  // SAML bindings 3.5.5.2: the Destination must be the URL the message arrived at. Unsigned when only
  // the assertion is signed; the signed Recipient is checked below.
  if (root.getAttribute('Destination') !== urls.acsUrl) throw new SamlRejectedError(REJECTION.destination);

  let assertionXml: string;
  try {
    const { profile } = await samlFor(idp, urls, cacheProviderOver(store)).validatePostResponseAsync({ SAMLResponse: body.SAMLResponse });
    const signed = profile?.getAssertionXml?.();
    if (!signed) throw new SamlRejectedError(REJECTION.noAssertion);
    assertionXml = signed;
  } catch (e) {
    if (e instanceof SamlRejectedError) throw e;
    if (e instanceof SamlStatusError) throw new SamlRejectedError(REJECTION.idpStatus, e.message);
    const message = (e as Error).message ?? String(e);
    const reason = reasonForLibraryError(message);
    if (reason === REJECTION.notOurs && (await wasUsedBefore(store, doc))) throw new SamlRejectedError(REJECTION.replayed, message);
    throw new SamlRejectedError(reason, message);
  }

  const assertion = readSignedAssertion(assertionXml, idp, urls, inResponseTo);
  await store.remember(USED_ASSERTION + assertion.id, assertion.notOnOrAfter ?? new Date(Date.now() + REQUEST_ID_LIFETIME_MS));
  return assertion.result;
}

function decodeBase64(value: string): string {
  const compact = value.replace(/\s+/g, '');
  if (compact.length > (MAX_RESPONSE_BYTES * 4) / 3 + 4) throw new SamlRejectedError(REJECTION.malformed, 'SAMLResponse too large');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) throw new SamlRejectedError(REJECTION.malformed, 'SAMLResponse is not base64');
  return Buffer.from(compact, 'base64').toString('utf8');
}

/**
 * A response whose request id is unknown may be a replay of one already accepted: its assertion's
 * ID was remembered then. Only the wording of the refusal depends on this (the response is refused
 * either way), so the unsigned document may be read here.
 */
async function wasUsedBefore(store: RequestIdStore, doc: Document): Promise<boolean> {
  const id = childElement(doc.documentElement, SAML_ASSERTION_NS, 'Assertion')?.getAttribute('ID');
  if (!id) return false;
  // takeOnce is the store's only read: put the mark back for the next attempt.
  if (!(await store.takeOnce(USED_ASSERTION + id))) return false;
  await store.remember(USED_ASSERTION + id, new Date(Date.now() + REQUEST_ID_LIFETIME_MS));
  return true;
}

/** Reads the assertion node-saml verified (its signed bytes, not the document around them). */
function readSignedAssertion(xml: string, idp: SamlIdp, urls: SpUrls, inResponseTo: string): { id: string; notOnOrAfter?: Date; result: SamlAssertion } {
  const assertion = parseXmlSafely(xml, 'signed assertion').documentElement;
  const text = (parent: Element | undefined, name: string) => (parent ? childElement(parent, SAML_ASSERTION_NS, name)?.textContent?.trim() : undefined);

  const issuer = text(assertion, 'Issuer');
  if (issuer !== idp.entityId) throw new SamlRejectedError(REJECTION.issuer, `Issuer ${issuer ?? '(none)'}`);

  const subject = childElement(assertion, SAML_ASSERTION_NS, 'Subject');
  // Web SSO profile 4.1.4.2: a bearer confirmation whose Recipient is our ACS and whose InResponseTo
  // is our request. This is the signed copy of what Destination and the Response's InResponseTo say.
  const confirmations = (subject ? childElements(subject, SAML_ASSERTION_NS, 'SubjectConfirmation') : [])
    .filter((c) => c.getAttribute('Method') === BEARER)
    .map((c) => childElement(c, SAML_ASSERTION_NS, 'SubjectConfirmationData'))
    .filter((d): d is Element => !!d);
  if (!confirmations.some((d) => d.getAttribute('Recipient') === urls.acsUrl))
    throw new SamlRejectedError(REJECTION.destination, 'no bearer confirmation for our ACS');
  if (!confirmations.some((d) => d.getAttribute('Recipient') === urls.acsUrl && d.getAttribute('InResponseTo') === inResponseTo))
    throw new SamlRejectedError(REJECTION.notOurs, 'the signed InResponseTo is not our request');

  const nameIdElement = subject ? childElement(subject, SAML_ASSERTION_NS, 'NameID') : undefined;
  const nameId = nameIdElement?.textContent?.trim();
  if (!nameId) throw new SamlRejectedError(REJECTION.noNameId);
  const nameIdFormat = nameIdElement?.getAttribute('Format') || undefined;
  // A transient NameID changes at every sign-in: it cannot be the subject of an external link.
  if (nameIdFormat === TRANSIENT) throw new SamlRejectedError(REJECTION.transientNameId);

  const attributes: Record<string, string | string[]> = {};
  for (const statement of childElements(assertion, SAML_ASSERTION_NS, 'AttributeStatement')) {
    for (const attribute of childElements(statement, SAML_ASSERTION_NS, 'Attribute')) {
      const name = attribute.getAttribute('Name');
      if (!name || Object.prototype.hasOwnProperty.call(attributes, name) || name === '__proto__') continue;
      const values = childElements(attribute, SAML_ASSERTION_NS, 'AttributeValue').map((v) => v.textContent ?? '');
      if (values.length) attributes[name] = values.length === 1 ? values[0] : values;
    }
  }

  const authn = childElement(assertion, SAML_ASSERTION_NS, 'AuthnStatement');
  const sessionIndex = authn?.getAttribute('SessionIndex') || undefined;
  const notOnOrAfter = childElement(assertion, SAML_ASSERTION_NS, 'Conditions')?.getAttribute('NotOnOrAfter');
  const id = assertion.getAttribute('ID');
  if (!id) throw new SamlRejectedError(REJECTION.malformed, 'assertion without ID');
  return {
    id,
    notOnOrAfter: notOnOrAfter && !Number.isNaN(Date.parse(notOnOrAfter)) ? new Date(Date.parse(notOnOrAfter) + ACCEPTED_CLOCK_SKEW_MS) : undefined,
    result: { issuer, nameId, ...(nameIdFormat ? { nameIdFormat } : {}), attributes, ...(sessionIndex ? { sessionIndex } : {}) },
  };
}

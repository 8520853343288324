import type { SamlIdp } from './idp-settings';
import { REJECTION, reasonForLibraryError, SamlRejectedError } from './rejected';
import { REQUEST_ID_LIFETIME_MS, type RequestIdStore } from './request-id-store';
import { MAX_ENCODED_RESPONSE_CHARS, ROOT_TAG_PREFIX_BYTES } from './response-limits';
import { scanXml, type RootTag, type ScanRefusal } from './response-scan';
import { childElement, childElements, parseXmlSafely, SAML_ASSERTION_NS, SAML_PROTOCOL_NS } from './safe-xml';
import { ACCEPTED_CLOCK_SKEW_MS, samlOptionsFor, type SpUrls } from './sp-config';
import { validateInWorker, type PreParseRefusal } from './validate-pool';

// The ACS (HTTP-POST binding): the one way a SAML sign-in comes back. node-saml checks the XML
// signature (the assertion must be signed, by a key of the IdP's certificates), the conditions'
// time window, the audience and the one-time InResponseTo; this module checks what it leaves out:
// the message kind (IdP-initiated SSO, Single Logout and Artifact are refused, as the spec says),
// the Destination and the signed Recipient (our ACS), the signed InResponseTo, the Issuer.
//
// Cheapest first (issue 30 item 1; docs/security.md "SAML responses are cheap to refuse"): the post
// is anonymous and its slug public, and parsing is what costs. So the size is checked from the
// length alone, the root element is read from the first 16 KiB only (response-scan.ts, no parse),
// and a response to no request this realm is waiting for is refused there, before the rest is even
// decoded. Only a response to a pending request, taken once, goes to a worker thread
// (validate-pool.ts), which decodes it in full, scans it against the shape limits
// (response-limits.ts), and only then parses and verifies it: even a bounded parse never holds the
// event loop.

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

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
/** Request ids already answered are remembered in the same store under this prefix, to tell a replay from a stranger. */
export const ANSWERED_REQUEST = 'answered-request:';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_REQUEST_ID_LENGTH = 128;

/**
 * Checks a posted response. `ownBrowser` is asked once the response's request was taken: whether the
 * browser that posted it is the one that sent the request (saml-browser-cookie.ts); it is checked
 * before the response is read any further.
 */
export async function validateSamlPost(
  idp: SamlIdp,
  urls: SpUrls,
  store: RequestIdStore,
  body: AcsPostBody,
  ownBrowser: () => boolean = () => true,
): Promise<SamlAssertion> {
  if (body.SAMLart) throw new SamlRejectedError(REJECTION.artifact);
  // An IdP posts a request to an SP only to log it out.
  if (body.SAMLRequest) throw new SamlRejectedError(REJECTION.singleLogout);
  if (!body.SAMLResponse) throw new SamlRejectedError(REJECTION.noResponse);
  const encoded = body.SAMLResponse;
  if (encoded.length > MAX_ENCODED_RESPONSE_CHARS) throw new SamlRejectedError(REJECTION.tooLarge, `${encoded.length} base64 characters`);

  const root = rootTagOf(encoded);
  if (root.namespace !== SAML_PROTOCOL_NS) throw new SamlRejectedError(REJECTION.notAResponse);
  if (root.localName === 'LogoutResponse' || root.localName === 'LogoutRequest') throw new SamlRejectedError(REJECTION.singleLogout);
  if (root.localName === 'ArtifactResponse') throw new SamlRejectedError(REJECTION.artifact);
  if (root.localName !== 'Response') throw new SamlRejectedError(REJECTION.notAResponse);
  const inResponseTo = root.attributes.get('InResponseTo') ?? '';
  if (!inResponseTo) throw new SamlRejectedError(REJECTION.idpInitiated);
  // SAML bindings 3.5.5.2: the Destination must be the URL the message arrived at. Unsigned when only
  // the assertion is signed; the signed Recipient is checked below.
  if (root.attributes.get('Destination') !== urls.acsUrl) throw new SamlRejectedError(REJECTION.destination);

  // Our request ids are node-saml's `_` and 40 hex digits: a longer one is no request of ours, and is
  // not worth a lookup.
  if (inResponseTo.length > MAX_REQUEST_ID_LENGTH) throw new SamlRejectedError(REJECTION.notOurs, 'InResponseTo too long');
  // The one atomic step: this response answers a request we sent and no other response did.
  if (!(await store.takeOnce(inResponseTo))) {
    if (await wasAnsweredBefore(store, inResponseTo)) throw new SamlRejectedError(REJECTION.replayed);
    throw new SamlRejectedError(REJECTION.notOurs);
  }
  if (!ownBrowser()) throw new SamlRejectedError(REJECTION.otherBrowser);

  // The rest (decode, scan against the limits, parse, signature) on a worker thread.
  const verdict = await validateInWorker(samlOptionsFor(idp, urls), encoded, inResponseTo);
  if ('refused' in verdict) throw refusalOf(verdict.refused);
  if ('error' in verdict) {
    if (verdict.error.status) throw new SamlRejectedError(REJECTION.idpStatus, verdict.error.message);
    throw new SamlRejectedError(reasonForLibraryError(verdict.error.message), verdict.error.message);
  }
  if (!verdict.assertionXml) throw new SamlRejectedError(REJECTION.noAssertion);

  const assertion = readSignedAssertion(verdict.assertionXml, idp, urls, inResponseTo);
  await store.remember(ANSWERED_REQUEST + inResponseTo, assertion.notOnOrAfter ?? new Date(Date.now() + REQUEST_ID_LIFETIME_MS));
  return assertion.result;
}

/** The root element's start tag, from the decoded beginning of the base64 only. */
function rootTagOf(encoded: string): RootTag {
  const chars = Math.ceil(ROOT_TAG_PREFIX_BYTES / 3) * 4;
  // Line breaks are allowed in the base64 (some IdPs wrap it): take enough to hold `chars` without them.
  let prefix = encoded.slice(0, chars * 2).replace(/\s+/g, '');
  if (prefix.length > chars) prefix = prefix.slice(0, chars);
  else if (encoded.length > chars * 2) prefix = prefix.slice(0, prefix.length - (prefix.length % 4));
  if (!BASE64.test(prefix)) throw new SamlRejectedError(REJECTION.malformed, 'SAMLResponse is not base64');
  const scanned = scanXml(Buffer.from(prefix, 'base64').toString('utf8'), { maxElements: 1, maxDepth: 1 }, { rootOnly: true });
  if (!scanned.ok) throw refusalOf(scanned);
  return scanned.root;
}

function refusalOf(refusal: ScanRefusal | PreParseRefusal): SamlRejectedError {
  if (refusal.problem === 'too-deep' || refusal.problem === 'too-many-elements' || refusal.problem === 'too-large')
    return new SamlRejectedError(REJECTION.tooLarge, refusal.detail);
  return new SamlRejectedError(REJECTION.malformed, refusal.problem === 'doctype' ? 'the SAML response has a DOCTYPE, which is refused' : refusal.detail);
}

/**
 * A response whose request id is unknown may be a second copy of one already accepted: the id was
 * remembered as answered then. Only the wording of the refusal depends on this.
 */
async function wasAnsweredBefore(store: RequestIdStore, requestId: string): Promise<boolean> {
  // takeOnce is the store's only read: put the mark back for the next attempt.
  if (!(await store.takeOnce(ANSWERED_REQUEST + requestId))) return false;
  await store.remember(ANSWERED_REQUEST + requestId, new Date(Date.now() + REQUEST_ID_LIFETIME_MS));
  return true;
}

/** Reads the assertion node-saml verified (its signed bytes, not the document around them). */
function readSignedAssertion(xml: string, idp: SamlIdp, urls: SpUrls, inResponseTo: string): { id: string; notOnOrAfter?: Date; result: SamlAssertion } {
  const assertion = parseXmlSafely(xml, 'signed assertion').documentElement;
  const text = (parent: Element | undefined, name: string) => (parent ? childElement(parent, SAML_ASSERTION_NS, name)?.textContent?.trim() : undefined);

  const issuer = text(assertion, 'Issuer');
  if (issuer !== idp.entityId) throw new SamlRejectedError(REJECTION.issuer, `Issuer ${issuer ?? '(none)'}`);

  // node-saml checked the time window on the worker's clock; the decision is this thread's, so the
  // signed Conditions are checked again here against the clock every other check of the request uses.
  const conditions = childElement(assertion, SAML_ASSERTION_NS, 'Conditions');
  const notBefore = Date.parse(conditions?.getAttribute('NotBefore') ?? '');
  const notOnOrAfter = Date.parse(conditions?.getAttribute('NotOnOrAfter') ?? '');
  if (!Number.isNaN(notBefore) && Date.now() + ACCEPTED_CLOCK_SKEW_MS < notBefore) throw new SamlRejectedError(REJECTION.notYetValid);
  if (!Number.isNaN(notOnOrAfter) && Date.now() - ACCEPTED_CLOCK_SKEW_MS >= notOnOrAfter) throw new SamlRejectedError(REJECTION.expired);

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
  const id = assertion.getAttribute('ID');
  if (!id) throw new SamlRejectedError(REJECTION.malformed, 'assertion without ID');
  return {
    id,
    notOnOrAfter: Number.isNaN(notOnOrAfter) ? undefined : new Date(notOnOrAfter + ACCEPTED_CLOCK_SKEW_MS),
    result: { issuer, nameId, ...(nameIdFormat ? { nameIdFormat } : {}), attributes, ...(sessionIndex ? { sessionIndex } : {}) },
  };
}

import { DOMParser } from '@xmldom/xmldom';

// XML from outside (IdP metadata pasted by an administrator, SAML messages posted by a browser) is
// parsed without a document type: a DOCTYPE is where entity expansion and external-entity attacks
// live, and no SAML document needs one. Parse errors are errors, not best-effort trees.

export const SAML_PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const SAML_ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const SAML_METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
export const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

export function parseXmlSafely(xml: string, what: string): Document {
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) throw new Error(`The ${what} has a DOCTYPE, which is refused.`);
  const problems: string[] = [];
  const doc = new DOMParser({
    locator: {},
    errorHandler: { warning: () => undefined, error: (m) => problems.push(m), fatalError: (m) => problems.push(m) },
  }).parseFromString(xml, 'text/xml');
  if (problems.length || !doc?.documentElement) throw new Error(`The ${what} is not well-formed XML${problems.length ? `: ${problems[0]}` : ''}.`);
  return doc;
}

/** The child elements of `parent` with that namespace and local name (direct children only). */
export function childElements(parent: Element, ns: string, localName: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === localName) out.push(n as Element);
  }
  return out;
}

export function childElement(parent: Element, ns: string, localName: string): Element | undefined {
  return childElements(parent, ns, localName)[0];
}

// A cheap look at a posted SAML response before anything parses it (issue 30 item 1). Parsing is
// the expensive part of the ACS: a deeply nested document of half a megabyte cost about a second of
// the event loop in xmldom and node-saml, before an unknown InResponseTo was noticed. This module
// reads only what the ACS needs to refuse a stranger (the root element's name, namespace and
// attributes) and measures the document's shape (elements, depth) against fixed limits, in one
// forward pass: every step moves the position on, so the work is linear in the input, nothing
// recurses, and nothing is built but the root's attributes and a stack bounded by the depth limit.
//
// It is not a parser: it refuses what no SAML response needs (a DOCTYPE or any other `<!` markup
// but comments and CDATA, text outside the root, a tag that does not close, mismatched end tags)
// and leaves well-formedness in full to xmldom, which still parses what passes here.

/** What a response may be at most. A real one is a few kilobytes, 5 to 8 elements deep. */
export type ShapeLimits = { maxElements: number; maxDepth: number };

/** The root element's start tag: its qualified name, the namespace of its prefix, its attributes. */
export type RootTag = {
  name: string;
  localName: string;
  /** The namespace its prefix (or the default namespace) is bound to on this tag; a root has no ancestors to inherit from. */
  namespace: string | undefined;
  /** Attribute values with the predefined and numeric character references resolved. */
  attributes: ReadonlyMap<string, string>;
};

export type ScanRefusal = { ok: false; problem: 'malformed' | 'doctype' | 'too-many-elements' | 'too-deep'; detail: string };
export type ScanResult = { ok: true; root: RootTag; elements: number; depth: number; steps: number } | ScanRefusal;

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const BANG = 0x21;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** Characters that end a name: space, `>`, `/`, `=`, `<`, quotes. */
const endsName = (c: number) => isSpace(c) || c === GT || c === SLASH || c === EQUALS || c === LT || c === QUOTE || c === APOSTROPHE;

const refuse = (problem: ScanRefusal['problem'], detail: string): ScanRefusal => ({ ok: false, problem, detail });

/**
 * Scans `xml` once. With `rootOnly`, stops after the root's start tag (the ACS's first look, over a
 * prefix of the document); otherwise the whole document, refused beyond `limits`.
 */
export function scanXml(xml: string, limits: ShapeLimits, options: { rootOnly?: boolean } = {}): ScanResult {
  const n = xml.length;
  const open: string[] = [];
  let root: RootTag | undefined;
  let rootClosed = false;
  let elements = 0;
  let deepest = 0;
  let steps = 0;
  let i = 0;
  while (i < n) {
    steps++;
    const c = xml.charCodeAt(i);
    if (c !== LT) {
      // Character data: only inside the root (whitespace around it is fine).
      const next = xml.indexOf('<', i);
      const end = next < 0 ? n : next;
      if (open.length === 0 && xml.slice(i, end).trim() !== '') return refuse('malformed', 'text outside the root element');
      i = end;
      continue;
    }
    const c1 = xml.charCodeAt(i + 1);
    if (c1 === QUESTION) {
      const end = xml.indexOf('?>', i + 2);
      if (end < 0) return refuse('malformed', 'a processing instruction does not end');
      i = end + 2;
      continue;
    }
    if (c1 === BANG) {
      if (xml.startsWith('<!--', i)) {
        const end = xml.indexOf('-->', i + 4);
        if (end < 0) return refuse('malformed', 'a comment does not end');
        i = end + 3;
        continue;
      }
      if (xml.startsWith('<![CDATA[', i) && open.length > 0) {
        const end = xml.indexOf(']]>', i + 9);
        if (end < 0) return refuse('malformed', 'a CDATA section does not end');
        i = end + 3;
        continue;
      }
      // A DOCTYPE is where entity expansion and external entities live (safe-xml.ts); no SAML message has one.
      return refuse('doctype', 'a DOCTYPE or other declaration');
    }
    if (c1 === SLASH) {
      const end = xml.indexOf('>', i + 2);
      if (end < 0) return refuse('malformed', 'an end tag does not close');
      const name = xml.slice(i + 2, end).trimEnd();
      if (open.pop() !== name) return refuse('malformed', 'an end tag does not match its start tag');
      if (open.length === 0) rootClosed = true;
      i = end + 1;
      continue;
    }
    // A start tag.
    if (rootClosed) return refuse('malformed', 'a second root element');
    const tag = readStartTag(xml, i + 1, root === undefined);
    if (!tag.ok) return tag;
    steps += tag.steps;
    elements++;
    if (elements > limits.maxElements) return refuse('too-many-elements', `more than ${limits.maxElements} elements`);
    if (root === undefined) {
      root = rootTagOf(tag.name, tag.attributes!);
      if (options.rootOnly) return { ok: true, root, elements, depth: 1, steps };
    }
    if (tag.selfClosing) {
      if (open.length === 0) rootClosed = true;
    } else {
      open.push(tag.name);
      if (open.length > limits.maxDepth) return refuse('too-deep', `nested more than ${limits.maxDepth} deep`);
    }
    deepest = Math.max(deepest, open.length + (tag.selfClosing ? 1 : 0));
    i = tag.end;
  }
  if (!root) return refuse('malformed', 'no root element');
  if (open.length > 0) return refuse('malformed', 'the root element does not end');
  return { ok: true, root, elements, depth: deepest, steps };
}

type StartTag = { ok: true; name: string; attributes?: Map<string, string>; selfClosing: boolean; end: number; steps: number } | ScanRefusal;

/** Reads `name attr="v" ... >` from `from` (just after `<`); attributes are kept only when asked. */
function readStartTag(xml: string, from: number, keepAttributes: boolean): StartTag {
  const n = xml.length;
  let i = from;
  let steps = 0;
  while (i < n && !endsName(xml.charCodeAt(i))) i++;
  const name = xml.slice(from, i);
  steps += i - from;
  if (!name) return refuse('malformed', 'a tag without a name');
  const attributes = keepAttributes ? new Map<string, string>() : undefined;
  for (;;) {
    const before = i;
    while (i < n && isSpace(xml.charCodeAt(i))) i++;
    steps += i - before + 1;
    if (i >= n) return refuse('malformed', 'a start tag does not close');
    const c = xml.charCodeAt(i);
    if (c === GT) return { ok: true, name, attributes, selfClosing: false, end: i + 1, steps };
    if (c === SLASH) {
      if (xml.charCodeAt(i + 1) !== GT) return refuse('malformed', 'a stray / in a start tag');
      return { ok: true, name, attributes, selfClosing: true, end: i + 2, steps };
    }
    if (i === before) return refuse('malformed', 'attributes must be separated by white space');
    const nameStart = i;
    while (i < n && !endsName(xml.charCodeAt(i))) i++;
    const attribute = xml.slice(nameStart, i);
    steps += i - nameStart;
    if (!attribute) return refuse('malformed', 'an attribute without a name');
    while (i < n && isSpace(xml.charCodeAt(i))) i++;
    if (xml.charCodeAt(i) !== EQUALS) return refuse('malformed', 'an attribute without a value');
    i++;
    while (i < n && isSpace(xml.charCodeAt(i))) i++;
    const quote = xml.charCodeAt(i);
    if (quote !== QUOTE && quote !== APOSTROPHE) return refuse('malformed', 'an attribute value without quotes');
    const close = xml.indexOf(quote === QUOTE ? '"' : "'", i + 1);
    if (close < 0) return refuse('malformed', 'an attribute value does not end');
    const raw = xml.slice(i + 1, close);
    steps += close - nameStart;
    if (raw.includes('<')) return refuse('malformed', 'a < in an attribute value');
    if (attributes) {
      if (attributes.has(attribute)) return refuse('malformed', 'an attribute given twice');
      const value = resolveReferences(raw);
      if (value === undefined) return refuse('malformed', 'an unknown reference in an attribute value');
      attributes.set(attribute, value);
    }
    i = close + 1;
  }
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** `&amp;`, `&#38;`, `&#x26;` and the other predefined references; undefined for anything else. */
function resolveReferences(raw: string): string | undefined {
  if (!raw.includes('&')) return raw.replace(/[\t\n\r]/g, ' ');
  let ok = true;
  const value = raw.replace(/&([^;&]{0,10});?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) return ((ok = false), '');
    if (Object.hasOwn(PREDEFINED, ref)) return PREDEFINED[ref];
    const code = /^#x[0-9a-f]{1,6}$/i.test(ref) ? parseInt(ref.slice(2), 16) : /^#[0-9]{1,7}$/.test(ref) ? parseInt(ref.slice(1), 10) : NaN;
    if (!Number.isInteger(code) || code < 1 || code > 0x10ffff) return ((ok = false), '');
    return String.fromCodePoint(code);
  });
  return ok ? value.replace(/[\t\n\r]/g, ' ') : undefined;
}

function rootTagOf(name: string, attributes: Map<string, string>): RootTag {
  const colon = name.indexOf(':');
  const prefix = colon < 0 ? undefined : name.slice(0, colon);
  const namespace = attributes.get(prefix === undefined ? 'xmlns' : `xmlns:${prefix}`);
  return { name, localName: colon < 0 ? name : name.slice(colon + 1), namespace, attributes };
}

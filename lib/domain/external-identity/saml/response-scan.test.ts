import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RESPONSE_SHAPE_LIMITS } from './response-limits';
import { scanXml } from './response-scan';

// The scanner the ACS runs before anything parses a posted response (issue 30 item 1): it must
// never throw, do work linear in its input, and refuse exactly what is beyond the limits.

const LIMITS = { maxElements: 50, maxDepth: 8 };
const ROOT_OPEN = '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_r1" InResponseTo="_req&amp;1" Destination="https://a.example/acs">';
const ROOT_CLOSE = '</samlp:Response>';

const nested = (depth: number) => '<a x="1">'.repeat(depth) + '</a>'.repeat(depth);
const siblings = (count: number) => '<b/>'.repeat(count);

describe('reading the root element', () => {
  it('reads the name, the namespace its prefix is bound to and the attributes, references resolved', () => {
    const r = scanXml(`<?xml version="1.0" encoding="UTF-8"?>\n<!-- from the IdP -->\n${ROOT_OPEN}<x/>${ROOT_CLOSE}\n`, LIMITS);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.root.localName).toBe('Response');
    expect(r.root.namespace).toBe('urn:oasis:names:tc:SAML:2.0:protocol');
    expect(r.root.attributes.get('InResponseTo')).toBe('_req&1');
    expect(r.root.attributes.get('Destination')).toBe('https://a.example/acs');
    expect(r.elements).toBe(2);
    expect(r.depth).toBe(2);
  });

  it('stops after the root start tag when asked, so a prefix of the document is enough', () => {
    const r = scanXml(ROOT_OPEN + '<a><b>cut here', LIMITS, { rootOnly: true });
    expect(r.ok && r.root.attributes.get('ID')).toBe('_r1');
    // An unprefixed root takes the default namespace; an undeclared prefix has none.
    const d = scanXml('<Response xmlns="urn:x" a=\'1\'>', LIMITS, { rootOnly: true });
    expect(d.ok && d.root.namespace).toBe('urn:x');
    const u = scanXml('<p:Response a="1">', LIMITS, { rootOnly: true });
    expect(u.ok && u.root.namespace).toBeUndefined();
  });

  it('refuses a DOCTYPE, an entity, a root tag that does not close, a duplicate or unknown reference, text outside the root', () => {
    const problem = (xml: string, rootOnly = false) => {
      const r = scanXml(xml, LIMITS, { rootOnly });
      return r.ok ? 'accepted' : r.problem;
    };
    expect(problem(`<!DOCTYPE r [<!ENTITY e "x">]>${ROOT_OPEN}${ROOT_CLOSE}`)).toBe('doctype');
    expect(problem(`${ROOT_OPEN}<!ENTITY e "x">${ROOT_CLOSE}`)).toBe('doctype');
    expect(problem('<samlp:Response', true)).toBe('malformed');
    expect(problem('<r a="1" a="2">', true)).toBe('malformed');
    expect(problem('<r a="&e;">', true)).toBe('malformed');
    expect(problem('<r a="<">', true)).toBe('malformed');
    expect(problem('hello<r/>')).toBe('malformed');
    expect(problem('<r/><r/>')).toBe('malformed');
    expect(problem('<r><a></b></r>')).toBe('malformed');
    expect(problem('<r><a>')).toBe('malformed');
    expect(problem('')).toBe('malformed');
    expect(problem('<r><![CDATA[<not a tag>]]></r>')).toBe('accepted');
  });
});

describe('the shape limits', () => {
  it('accepts up to the depth limit and refuses one deeper, without reading the rest', () => {
    expect(scanXml(nested(LIMITS.maxDepth), LIMITS).ok).toBe(true);
    const r = scanXml(nested(LIMITS.maxDepth + 1), LIMITS);
    expect(r.ok ? 'accepted' : r.problem).toBe('too-deep');
    // Half a megabyte of nesting is refused after the first few levels.
    const deep = scanXml(ROOT_OPEN + nested(68_000) + ROOT_CLOSE, RESPONSE_SHAPE_LIMITS);
    expect(deep.ok ? 'accepted' : deep.problem).toBe('too-deep');
  });

  it('accepts up to the element limit and refuses one more', () => {
    expect(scanXml(`<r>${siblings(LIMITS.maxElements - 1)}</r>`, LIMITS).ok).toBe(true);
    const r = scanXml(`<r>${siblings(LIMITS.maxElements)}</r>`, LIMITS);
    expect(r.ok ? 'accepted' : r.problem).toBe('too-many-elements');
  });

  it('refuses exactly the generated documents beyond a limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 80 }), (depth, extra) => {
        const xml = `<r>${nested(depth - 1)}${siblings(extra)}</r>`;
        const r = scanXml(xml, LIMITS);
        const elements = depth + extra;
        const expected = depth > LIMITS.maxDepth ? 'too-deep' : elements > LIMITS.maxElements ? 'too-many-elements' : 'accepted';
        // Elements are counted as they open: the element limit may be met before the depth one.
        const got = r.ok ? 'accepted' : r.problem;
        if (expected === 'too-deep' && got === 'too-many-elements') return depth > LIMITS.maxElements;
        expect(got).toBe(expected);
        if (r.ok) expect(r).toMatchObject({ elements, depth: extra ? Math.max(depth, 2) : depth });
        return true;
      }),
    );
  });
});

// Fragments that make the scanner's branches meet in any order.
const fragment = fc.constantFrom(
  '<',
  '>',
  '/',
  '/>',
  '</',
  '<a',
  '</a>',
  '<a>',
  '<b/>',
  ' x="1"',
  " y='2'",
  '="',
  '"',
  "'",
  '&amp;',
  '&',
  ';',
  '<?',
  '?>',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<!DOCTYPE',
  ' ',
  '\n',
  'text',
  ':',
  'p:r',
  'xmlns:p="u"',
);
const xmlish = fc.array(fc.oneof(fragment, fc.string({ maxLength: 4 })), { maxLength: 60 }).map((parts) => parts.join(''));

const PROBLEMS = new Set(['malformed', 'doctype', 'too-many-elements', 'too-deep']);

describe('any input', () => {
  it('never throws, and its work is linear in the input (each step moves forward)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          xmlish,
          fc.string({ maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('utf8')),
        ),
        fc.boolean(),
        (xml, rootOnly) => {
          const r = scanXml(xml, LIMITS, { rootOnly });
          return r.ok ? r.steps <= 2 * xml.length + 2 : PROBLEMS.has(r.problem);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('accepts nothing beyond the limits, whatever the input', () => {
    fc.assert(
      fc.property(xmlish, (xml) => {
        const r = scanXml(xml, LIMITS);
        return !r.ok || (r.elements <= LIMITS.maxElements && r.depth <= LIMITS.maxDepth);
      }),
      { numRuns: 2000 },
    );
  });

  it('scans the largest hostile shapes within the response limit in milliseconds, not seconds', () => {
    const size = 128 * 1024;
    const shapes = [
      ROOT_OPEN + nested(Math.floor(size / 16)) + ROOT_CLOSE,
      `<r>${siblings(Math.floor(size / 4))}</r>`,
      `<r a="${'x'.repeat(size)}">`,
      `<r>${'<a b="1" '.repeat(Math.floor(size / 9))}`,
      `<r><!--${'-'.repeat(size)}`,
      '<'.repeat(size),
      `<r>${'&amp;'.repeat(size / 5)}</r>`,
    ];
    for (const xml of shapes) {
      scanXml(xml, RESPONSE_SHAPE_LIMITS);
      const started = performance.now();
      const r = scanXml(xml, RESPONSE_SHAPE_LIMITS);
      // A generous bound for a shared machine: the point is "not a parse of the whole".
      expect(performance.now() - started, xml.slice(0, 40)).toBeLessThan(50);
      if (r.ok) expect(r.steps).toBeLessThanOrEqual(2 * xml.length + 2);
    }
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFormFields } from './form-fields';

// The form reader of the SAML ACS (issue 30 item 1) answers what URLSearchParams answers. The
// constructor drops a leading `?` (a query string) that a form body keeps: a leading `&` sidesteps it.
const viaUrlSearchParams = (text: string) => Object.fromEntries(new URLSearchParams(`&${text}`));

describe('parseFormFields', () => {
  it('reads fields as URLSearchParams does, stray percents and bad UTF-8 included', () => {
    for (const text of ['SAMLResponse=%%%', 'a=1&a=2', 'a=%E2%82%AC+b%2B', 'a=%C0%AF', 'a=%FF&b', '&&=x&c==', '__proto__=x&constructor=y', 'a=%2']) {
      expect(parseFormFields(text), text).toEqual(viaUrlSearchParams(text));
    }
    expect(Object.getPrototypeOf(parseFormFields('__proto__=x'))).toBe(Object.prototype);
  });

  it('agrees with URLSearchParams on any input', () => {
    const piece = fc.oneof(fc.constantFrom('&', '=', '+', '%', '%2', '%2B', '%E2%82%AC', '%C3', '%ZZ', '__proto__'), fc.string({ maxLength: 5 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
        // A body is decoded from UTF-8 bytes first (read-json.ts): it holds no lone surrogate.
        const text = Buffer.from(parts.join(''), 'utf8').toString('utf8');
        expect(parseFormFields(text)).toEqual(viaUrlSearchParams(text));
      }),
      { numRuns: 2000 },
    );
  });
});

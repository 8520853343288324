import { describe, expect, it } from 'vitest';
import { assertWellFormedPath, decodePathSegment } from '../web/path-segment';

describe('decodePathSegment', () => {
  it('decodes a well-formed segment', () => {
    expect(decodePathSegment('a%20b%C3%A9', 'id')).toBe('a bé');
  });

  it.each(['%E0%A4%A', '%zz', '%', 'a%C0%AFb'])('answers Validation.Failed naming the parameter for %s', (raw) => {
    expect(() => decodePathSegment(raw, 'id')).toThrow(expect.objectContaining({ code: 'Validation.Failed', errors: { id: ['Malformed percent-encoding.'] } }));
    expect(() => assertWellFormedPath(`/api/user/${raw}`)).toThrow(expect.objectContaining({ code: 'Validation.Failed' }));
  });
});

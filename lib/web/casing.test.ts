import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuesToErrors, matchKeys, toWire } from '../web/casing';

describe('matchKeys', () => {
  const schema = z.object({
    UserName: z.string(),
    InitialAdmin: z.object({ Email: z.string() }).optional(),
    Items: z.array(z.object({ Name: z.string() })).nullable(),
  });

  it('maps any casing to the declared one, recursively', () => {
    const out = matchKeys({ username: 'a', initialadmin: { EMAIL: 'x@y' }, items: [{ name: 'n' }] }, schema);
    expect(out).toEqual({ UserName: 'a', InitialAdmin: { Email: 'x@y' }, Items: [{ Name: 'n' }] });
    expect(schema.parse(out)).toBeTruthy();
  });

  it('keeps unknown keys and prefers the exact spelling over a duplicate', () => {
    expect(matchKeys({ userName: 'b', UserName: 'a', extra: 1 }, schema)).toEqual({ UserName: 'a', extra: 1 });
  });
});

describe('toWire', () => {
  it('omits nulls and serialises dates', () => {
    const d = new Date('2026-01-02T03:04:05.000Z');
    expect(toWire({ A: null, B: undefined, C: d, D: [{ E: null, F: 1 }] })).toEqual({ C: '2026-01-02T03:04:05.000Z', D: [{ F: 1 }] });
  });
});

describe('issuesToErrors', () => {
  it('keeps a field named after a prototype member as a plain entry', () => {
    const issue = (path: string[]) => ({ code: 'custom', path, message: 'bad', input: undefined }) as z.core.$ZodIssue;
    const errors = issuesToErrors([issue(['constructor']), issue(['toString']), issue(['__proto__']), issue(['constructor'])]);
    expect(Object.entries(errors)).toEqual([
      ['constructor', ['bad', 'bad']],
      ['toString', ['bad']],
      ['__proto__', ['bad']],
    ]);
  });

  it('groups messages by field path', () => {
    const r = z.object({ Slug: z.string().min(3), Domains: z.array(z.string()) }).safeParse({ Slug: 'a', Domains: [1] });
    expect(r.success).toBe(false);
    if (!r.success) {
      const errors = issuesToErrors(r.error.issues);
      expect(Object.keys(errors).sort()).toEqual(['Domains.0', 'Slug']);
    }
  });
});

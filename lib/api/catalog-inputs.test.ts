import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogEntries } from './catalog';
import { isAppError } from '../errors/app-error';
import { parseInput, queryObject } from '../http/parse-input';

// The input normaliser sees whatever a client sends. Whatever the keys (including the names of
// Object.prototype's members) and values, it either answers the parsed input or a Validation.Failed
// error: never a TypeError that the wrapper would turn into a 500 (issue 8 item 7).

/** Keys that read something on a plain object: the ones the outside review used. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__', 'prototype'];

type ObjectSchema = { _zod: { def: { type: string; shape?: Record<string, unknown> } } };

/** The declared property names of a schema, so generated objects also hit the real fields. */
function declaredKeys(schema: z.ZodType | undefined): string[] {
  const def = (schema as unknown as ObjectSchema | undefined)?._zod.def;
  return def?.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}

/** Any key: a declared one in a random casing, a prototype member's name, or any string. */
function keyArb(declared: string[]): fc.Arbitrary<string> {
  const cased = declared.length
    ? fc.tuple(fc.constantFrom(...declared), fc.boolean()).map(([k, upper]) => (upper ? k.toUpperCase() : k.toLowerCase()))
    : fc.string();
  return fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), cased, fc.string({ maxLength: 12 }));
}

/** JSON as it arrives: built, serialised and parsed back, so `__proto__` is an own property as JSON.parse makes it. */
function wireJson(declared: string[]): fc.Arbitrary<unknown> {
  const key = keyArb([...declared, ...PROTOTYPE_KEYS]);
  const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true })),
      fc.array(tie('tree'), { maxLength: 3 }),
      fc.dictionary(key, tie('tree'), { maxKeys: 5 }),
    ),
  }));
  return fc.dictionary(key, tree, { maxKeys: 8 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
}

function parsesOrRefuses(schema: z.ZodType, raw: unknown, where: 'body' | 'query' | 'path'): void {
  try {
    parseInput(schema, raw, where);
  } catch (e) {
    if (!isAppError(e) || e.code !== 'Validation.Failed') throw e;
  }
}

const inputs = catalogEntries.flatMap(({ endpoint: e }) =>
  (['body', 'query', 'params'] as const)
    .filter((part) => e[part])
    .map((part) => ({ name: `${e.method} ${e.path} ${part}`, schema: e[part] as z.ZodType, where: part === 'params' ? ('path' as const) : part })),
);

describe('parseInput', () => {
  it.each(PROTOTYPE_KEYS)('treats a key named %s as an ordinary unknown key', (key) => {
    const schema = z.object({ Name: z.string(), Nested: z.object({ Value: z.number() }).optional() });
    const raw = JSON.parse(`{"name":"a","nested":{"value":1,"${key}":{"x":1}},"${key}":{"polluted":true}}`) as unknown;
    expect(parseInput(schema, raw, 'body')).toEqual({ Name: 'a', Nested: { Value: 1 } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a value shaped to break a length check as Validation.Failed', () => {
    const schema = z.object({ Id: z.string().min(1).max(64) });
    for (const value of [{ length: { toString: 0 } }, { length: { valueOf: 0, toString: 0 } }]) {
      expect(() => parseInput(schema, { id: value }, 'path')).toThrow(expect.objectContaining({ code: 'Validation.Failed' }));
    }
  });

  it('never throws anything but Validation.Failed for any JSON object on any declared input', () => {
    expect(inputs.length).toBeGreaterThan(50);
    for (const { name, schema, where } of inputs) {
      const examples: [unknown][] = PROTOTYPE_KEYS.map((k) => [JSON.parse(`{"${k}":{"${k}":"1"}}`)]);
      try {
        fc.assert(
          fc.property(wireJson(declaredKeys(schema)), (raw) => parsesOrRefuses(schema, raw, where)),
          { numRuns: 60, examples },
        );
      } catch (e) {
        throw new Error(`${name}: ${(e as Error).message}`, { cause: e });
      }
    }
    // Every declared input of the catalog, 60 runs each: the time grows with the catalog.
  }, 60_000);
});

describe('queryObject', () => {
  it('keeps parameters named after prototype members as plain values', () => {
    const q = queryObject(new URL('http://h/x?constructor=a&toString=b&__proto__=c&__proto__=d&hasOwnProperty=e'));
    expect(Object.getPrototypeOf(q)).toBe(Object.prototype);
    expect(Object.entries(q)).toEqual([
      ['constructor', 'a'],
      ['toString', 'b'],
      ['__proto__', ['c', 'd']],
      ['hasOwnProperty', 'e'],
    ]);
  });
});

import type { z } from 'zod';

// Wire casing (CONTRACT.md): request property names match case-insensitively, answers omit nulls.

type Schema = z.ZodType;

/** Unwraps optional/nullable/default/pipe wrappers to the schema that describes the value's shape. */
function core(schema: Schema): Schema {
  let s: Schema = schema;
  for (let i = 0; i < 10; i++) {
    const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
    const type = def.type as string;
    if (type === 'optional' || type === 'nullable' || type === 'default' || type === 'prefault' || type === 'readonly' || type === 'catch') {
      s = def.innerType as Schema;
    } else if (type === 'pipe') {
      s = def.in as Schema;
    } else {
      return s;
    }
  }
  return s;
}

/**
 * Renames the keys of `input` to the spelling the schema declares, ignoring case, recursively
 * through nested objects and arrays. Unknown keys are kept as they are (zod decides about them).
 *
 * Keys are client data: `constructor`, `toString` or `__proto__` must stay plain keys. So the shape
 * is only read through own properties, and the result is built from entries (Object.fromEntries
 * defines `__proto__` as an own property instead of setting the prototype).
 */
export function matchKeys(input: unknown, schema: Schema): unknown {
  const s = core(schema);
  const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (def.type === 'array' && Array.isArray(input)) {
    return input.map((item) => matchKeys(item, def.element as Schema));
  }
  if (def.type === 'object' && input !== null && typeof input === 'object' && !Array.isArray(input)) {
    const shape = new Map(Object.entries(def.shape as Record<string, Schema>));
    const byLower = new Map([...shape.keys()].map((k) => [k.toLowerCase(), k]));
    const out = new Map<string, unknown>();
    for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
      const canonical = byLower.get(key.toLowerCase()) ?? key;
      // An exact-case key wins over a differently-cased duplicate.
      if (out.has(canonical) && key !== canonical) continue;
      const field = shape.get(canonical);
      out.set(canonical, field ? matchKeys(value, field) : value);
    }
    return Object.fromEntries(out);
  }
  return input;
}

/** Drops null and undefined members recursively and turns Dates into ISO strings. */
export function toWire(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => (v === null ? null : toWire(v)));
  if (typeof value === 'object') {
    // From entries, so a stored `__proto__` key stays a key (see matchKeys).
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, toWire(v)]),
    );
  }
  return value;
}

/** zod issues -> the `errors` map of a Validation.Failed problem (field path -> messages). */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  // A Map: the field path can be any client key (`constructor`, `__proto__`).
  const errors = new Map<string, string[]>();
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : '$';
    errors.set(field, [...(errors.get(field) ?? []), issue.message]);
  }
  return Object.fromEntries(errors);
}

import type { z } from 'zod';
import { validationError } from '../errors/app-error';
import { issuesToErrors, matchKeys } from '../web/casing';
import { installFriendlyValidationMessages } from '../web/validation-messages';

// Every message in a Validation.Failed problem is a plain sentence (lib/web/validation-messages.ts).
installFriendlyValidationMessages();

/** Validates `raw` against `schema`, matching property names case-insensitively; 400 on failure. */
export function parseInput<T>(schema: z.ZodType<T>, raw: unknown, where: 'body' | 'query' | 'path'): T {
  let result: z.ZodSafeParseResult<T>;
  try {
    result = schema.safeParse(matchKeys(raw, schema));
  } catch {
    // Zod (4.6) still runs a string's length checks on a value of another type that has a `length`,
    // and one a client shaped to refuse conversion ({"length":{"toString":0}}) makes them throw.
    throw validationError({ $: ['A value is not of the type its field takes.'] }, `The request ${where} is not valid.`);
  }
  if (!result.success) throw validationError(issuesToErrors(result.error.issues), `The request ${where} is not valid.`);
  return result.data;
}

/** Query string -> object; a repeated parameter becomes an array. */
export function queryObject(url: URL): Record<string, string | string[]> {
  // A Map, not `out[k]`: a parameter named `constructor` or `__proto__` must not read Object.prototype.
  const out = new Map<string, string | string[]>();
  for (const [k, v] of url.searchParams) {
    const prev = out.get(k);
    out.set(k, prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v]);
  }
  return Object.fromEntries(out);
}

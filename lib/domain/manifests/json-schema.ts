import { z } from 'zod';
import { MANIFEST_EXAMPLE } from './example';
import { manifestSchema } from './schema';

// GET .../manifest-schema (spec 4.8): the JSON Schema (2020-12) of the manifest, generated from the
// same zod schema apply parses with (the input side: what a person writes), plus an example. The
// cross-item rules (references, duplicates, catalogs) are not expressible in JSON Schema; apply
// checks them and answers each at its JSON pointer.

let cached: { Schema: Record<string, unknown>; Example: Record<string, unknown> } | undefined;

export function manifestJsonSchema(): { Schema: Record<string, unknown>; Example: Record<string, unknown> } {
  cached ??= {
    Schema: {
      ...z.toJSONSchema(manifestSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }),
      title: 'Gatehouse realm manifest',
    },
    Example: MANIFEST_EXAMPLE,
  };
  return cached;
}

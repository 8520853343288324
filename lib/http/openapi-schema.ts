import { z } from 'zod';

// zod -> JSON Schema for the OpenAPI document (draft 2020-12 is OpenAPI 3.1's own dialect). Each
// schema is converted on its own; the `$defs` zod emits for recursive or registered schemas are
// hoisted into `components.schemas`, because inside an OpenAPI document `#/$defs/...` would resolve
// against the document root and dangle.

export type JsonSchema = { [keyword: string]: unknown };
export type SchemaIo = 'input' | 'output';

type ZodDef = { type?: string };

/** Dates leave as ISO strings (lib/web/casing.ts toWire); `undefined` members mean "must be absent". */
function override(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const def = (ctx.zodSchema as { _zod?: { def?: ZodDef } })._zod?.def;
  if (def?.type === 'date') {
    ctx.jsonSchema.type = 'string';
    ctx.jsonSchema.format = 'date-time';
  } else if (def?.type === 'undefined') {
    ctx.jsonSchema.not = {};
  }
}

/** Rewrites every `$ref` in a schema tree (objects and arrays, in place). */
function rewriteRefs(node: unknown, rewrite: (ref: string) => string): void {
  if (Array.isArray(node)) {
    for (const item of node) rewriteRefs(item, rewrite);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const obj = node as JsonSchema;
  if (typeof obj.$ref === 'string') obj.$ref = rewrite(obj.$ref);
  for (const value of Object.values(obj)) rewriteRefs(value, rewrite);
}

function hasRootRef(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasRootRef);
  if (typeof node !== 'object' || node === null) return false;
  const obj = node as JsonSchema;
  return obj.$ref === '#' || Object.values(obj).some(hasRootRef);
}

const isNullSchema = (s: unknown) => typeof s === 'object' && s !== null && (s as JsonSchema).type === 'null' && Object.keys(s).length === 1;

/** Removes `null` from one schema's alternatives (toWire omits null members, so they never appear). */
function withoutNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = (schema.type as string[]).filter((t) => t !== 'null');
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  if (Array.isArray(schema.anyOf) && schema.anyOf.some(isNullSchema)) {
    const rest = (schema.anyOf as JsonSchema[]).filter((s) => !isNullSchema(s));
    const { anyOf: _dropped, ...others } = schema;
    return rest.length === 1 ? { ...others, ...rest[0] } : { ...others, anyOf: rest };
  }
  return schema;
}

/** Answers omit null members: drop `null` from every object property schema, recursively. */
function omitNullMembers(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) omitNullMembers(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const obj = node as JsonSchema;
  if (typeof obj.properties === 'object' && obj.properties !== null) {
    const props = obj.properties as Record<string, JsonSchema>;
    for (const key of Object.keys(props)) props[key] = withoutNull(props[key]);
  }
  for (const value of Object.values(obj)) omitNullMembers(value);
}

const componentName = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

/**
 * Converts zod schemas for one document, collecting hoisted definitions in `components`.
 * `baseName` makes hoisted names unique per use (e.g. `createRealm.request`).
 */
export class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};

  convert(schema: z.ZodType, io: SchemaIo, baseName: string): JsonSchema {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', override, cycles: 'ref', reused: 'inline' }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = json;
    const base = componentName(baseName);
    const defs = ($defs ?? {}) as Record<string, JsonSchema>;
    const rootIsReferenced = hasRootRef(root) || Object.values(defs).some(hasRootRef);
    const rewrite = (ref: string): string => {
      if (ref === '#') return `#/components/schemas/${base}`;
      if (ref.startsWith('#/$defs/')) return `#/components/schemas/${base}.${componentName(ref.slice('#/$defs/'.length))}`;
      return ref;
    };
    for (const [name, def] of Object.entries(defs)) {
      rewriteRefs(def, rewrite);
      if (io === 'output') omitNullMembers(def);
      this.components[`${base}.${componentName(name)}`] = def;
    }
    rewriteRefs(root, rewrite);
    if (io === 'output') omitNullMembers(root);
    if (!rootIsReferenced) return root;
    // A self-recursive root becomes a component of its own, referenced from the operation.
    this.components[base] = root;
    return { $ref: `#/components/schemas/${base}` };
  }
}

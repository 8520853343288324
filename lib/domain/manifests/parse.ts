import { validationError } from '../../errors/app-error';
import { matchKeys } from '../../web/casing';
import { manifestSchema, type Manifest } from './schema';

// Reading a manifest sent by a person or a pipeline: property names match case-insensitively (as
// every request body does), every problem is reported at once and keyed by a JSON pointer (RFC 6901,
// `/Groups/3/Roles/0`), and a key the schema does not know is refused rather than silently dropped,
// since a misspelt field would otherwise read as "clear it". `__proto__` and the like are plain keys.

export function jsonPointer(path: readonly PropertyKey[]): string {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('') || '/';
}

export type ManifestCheck = { ok: true; manifest: Manifest } | { ok: false; errors: Record<string, string[]> };

export function checkManifest(raw: unknown): ManifestCheck {
  const input = matchKeys(raw, manifestSchema);
  const result = manifestSchema.safeParse(input);
  const errors = new Map<string, string[]>();
  const add = (path: readonly PropertyKey[], message: string) => {
    const key = jsonPointer(path);
    errors.set(key, [...(errors.get(key) ?? []), message]);
  };
  if (!result.success) {
    for (const issue of result.error.issues) add(issue.path, issue.message);
    return { ok: false, errors: Object.fromEntries(errors) };
  }
  unknownKeys(input, result.data, [], add);
  if (errors.size) return { ok: false, errors: Object.fromEntries(errors) };
  return { ok: true, manifest: result.data };
}

/** The manifest, or 400 Validation.Failed with `errors` keyed by JSON pointer. */
export function parseManifest(raw: unknown): Manifest {
  const checked = checkManifest(raw);
  if (!checked.ok) throw validationError(checked.errors, 'The manifest is not valid; nothing was changed.');
  return checked.manifest;
}

/**
 * Keys of the input that the parsed value lacks: zod drops unknown keys, so whatever it dropped was
 * not part of the manifest's shape. (Defaults only add keys, never remove them.)
 */
function unknownKeys(input: unknown, output: unknown, path: PropertyKey[], add: (path: readonly PropertyKey[], message: string) => void): void {
  if (Array.isArray(input) && Array.isArray(output)) {
    input.forEach((item, i) => unknownKeys(item, output[i], [...path, i], add));
    return;
  }
  if (!isObject(input) || !isObject(output)) return;
  for (const [key, value] of Object.entries(input)) {
    if (!Object.prototype.hasOwnProperty.call(output, key)) {
      if (value !== undefined) add([...path, key], `${key} is not a field here.`);
      continue;
    }
    unknownKeys(value, output[key], [...path, key], add);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

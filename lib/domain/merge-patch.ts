// Merge-patch rules of spec 4.9, in one place so every update applies them the same way:
// omitted = unchanged, null or "" clears an optional text field, natural keys and booleans ignore
// null, a list is replaced entirely and [] clears it. `undefined` in a Prisma `data` object means
// "leave the column alone", so the helpers answer undefined for "unchanged".

/** Optional text: omitted -> unchanged; null or blank -> cleared (null); otherwise the trimmed value. */
export function patchText(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Natural keys (user name, e-mail) never clear: null or blank means unchanged. */
export function patchKey(value: string | null | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Booleans are only set with true or false; null means unchanged. */
export function patchFlag(value: boolean | null | undefined): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** Lists: omitted -> unchanged; null or [] -> cleared; otherwise replaced entirely (deduplicated). */
export function patchList<T>(value: readonly T[] | null | undefined): T[] | undefined {
  if (value === undefined) return undefined;
  if (value === null) return [];
  return [...new Set(value)];
}

/** Text for a create or a full replace: blank or absent is stored as null. */
export function optionalText(value: string | null | undefined): string | null {
  return patchText(value) ?? null;
}

/** The names of the fields a patch actually sent (for PII-free `changed` lists in events). */
export function sentFields(patch: object): string[] {
  return Object.entries(patch)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
}

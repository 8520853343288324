// A group's BoundTo (spec 5.7.3): the App slugs it is effective for, "*" for every App, and [] for
// dormant (its roles count nowhere, but nesting still passes through it).
export const ALL_APPS = '*';

/** Deduplicates; "*" already covers every App, so a list holding it is stored as ["*"]. */
export function normalizeBoundTo(values: readonly string[]): string[] {
  const unique = [...new Set(values.map((v) => v.trim().toLowerCase()).filter(Boolean))];
  return unique.includes(ALL_APPS) ? [ALL_APPS] : unique.sort();
}

/** Slugs that name no App of the realm (they could never match, so they are refused on write). */
export function unknownApps(boundTo: readonly string[], appSlugs: readonly string[]): string[] {
  const known = new Set(appSlugs);
  return boundTo.filter((s) => s !== ALL_APPS && !known.has(s));
}

/** The Apps of the realm the group is effective for today. */
export function effectiveFor(boundTo: readonly string[], appSlugs: readonly string[]): string[] {
  if (boundTo.includes(ALL_APPS)) return [...appSlugs].sort();
  const bound = new Set(boundTo);
  return appSlugs.filter((s) => bound.has(s)).sort();
}

// A role draws its permissions from its App's catalog (spec 2.4, 4.7 "Roles"; CONTRACT.md
// "POST /api/role"). Pure, so the rule is tested without storage.

/** Trimmed, deduplicated and sorted, so equal sets are stored equally. */
export function normalizePermissions(permissions: readonly string[]): string[] {
  return [...new Set(permissions.map((p) => p.trim()).filter(Boolean))].sort();
}

/** The permissions that are not in the catalog, in the order given. */
export function permissionsOutsideCatalog(permissions: readonly string[], catalog: readonly { Name: string }[]): string[] {
  const names = new Set(catalog.map((e) => e.Name));
  return permissions.filter((p) => !names.has(p));
}

import type { CatalogEntry } from '../../authz/catalog';

// An App's permission catalog is stored as JSON text of { Name, Description } entries (spec 2.4,
// 4.7 "Applications"). Reading is forgiving: malformed entries are skipped.
export function parseCatalog(json: string | null | undefined): CatalogEntry[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value
      .filter((e): e is { Name: string; Description?: unknown } => typeof e === 'object' && e !== null && typeof (e as { Name?: unknown }).Name === 'string')
      .map((e) => ({ Name: e.Name, Description: typeof e.Description === 'string' ? e.Description : '' }));
  } catch {
    return [];
  }
}

/** The sparse Settings override document (spec 4.7), or null when the App inherits everything. */
export function parseSettings(json: string | null | undefined): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// Lists are stored as JSON text (portable across SQLite and PostgreSQL, docs/environment.md "Prisma 7").
// Reading is forgiving: a malformed column reads as empty rather than failing every list page.

export function parseStringList(json: string | null | undefined): string[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function toJsonList(values: readonly string[]): string {
  return JSON.stringify([...new Set(values)]);
}

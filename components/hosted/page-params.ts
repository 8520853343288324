/** The first value of a search parameter, trimmed; '' when absent. */
export function param(v: string | string[] | undefined): string {
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first.trim() : '';
}

export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

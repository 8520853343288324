import { api } from './api';

// Saves a JSON answer of the API as a file (a realm manifest): read through `api()`, so a failure
// is the same ApiError forms show, then written out indented, under the name the page chooses (the
// API answers plain JSON, with no Content-Disposition).

/** Fetches `path` and saves the answer as `fileName`; resolves to the parsed answer. */
export async function saveJsonFrom<T = unknown>(path: string, fileName: string): Promise<T> {
  const value = await api<T>(path);
  saveJson(value, fileName);
  return value;
}

/** Offers `value` to the browser as a JSON file named `fileName`. */
export function saveJson(value: unknown, fileName: string): void {
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Long enough for the browser to have taken the file.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

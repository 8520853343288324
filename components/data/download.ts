import { ApiError, type Problem } from './api';

// Downloads a file the API answers (the data archive): the same same-origin request as `api()`, the
// answer saved under the name its Content-Disposition gives. A failure is an ApiError like any
// other, so forms show it the same way. The browser holds the file once before saving it; the
// server streams it either way.

function problemOf(status: number, statusText: string, body: unknown): Problem {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return {
    status,
    title: typeof b.title === 'string' ? b.title : status === 429 ? 'Too many requests.' : statusText || `Request failed (${status})`,
    detail: typeof b.detail === 'string' ? b.detail : undefined,
    code: typeof b.code === 'string' ? b.code : undefined,
    errors: b.errors && typeof b.errors === 'object' ? (b.errors as Record<string, string[]>) : undefined,
    retryAfterSeconds: typeof b.retryAfterSeconds === 'number' ? b.retryAfterSeconds : undefined,
  };
}

/** Fetches `path` and saves the answer; resolves to the file name it was saved under. */
export async function downloadFile(path: string, init: { method?: 'GET' | 'POST'; body?: unknown; fallbackName: string }): Promise<string> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers: { accept: 'application/zip, application/problem+json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      credentials: 'same-origin',
      cache: 'no-store',
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  } catch {
    throw new ApiError({ title: 'The server could not be reached.', detail: 'Check your connection and try again.', status: 0 });
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    throw new ApiError(problemOf(response.status, response.statusText, body));
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch {
    throw new ApiError({ title: 'The download broke off.', detail: 'Try again.', status: 0 });
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? init.fallbackName;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Long enough for the browser to have taken the file.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}

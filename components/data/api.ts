// The one way the browser talks to the REST API: same-origin fetch with JSON bodies (the server
// rejects cross-origin writes and non-JSON bodies), and every failure turned into an ApiError that
// carries the RFC 7807 problem (CONTRACT.md "Wire rules").

export type Problem = {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  code?: string;
  errors?: Record<string, string[]>;
  /** 429 bodies (spec 7) */
  retryAfterSeconds?: number;
};

export class ApiError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(problem.detail ?? problem.title);
    this.name = 'ApiError';
    this.problem = problem;
  }
  get status(): number {
    return this.problem.status;
  }
  get code(): string | undefined {
    return this.problem.code;
  }
}

/** A list answer (lib/domain/paging.ts: the shape pageSchema declares). */
export type { Page as ListPage } from '@/lib/domain/paging';

export type ListQuery = { page?: number; pageSize?: number; search?: string; sortBy?: string; sortDescending?: boolean };

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function asProblem(status: number, body: unknown, statusText: string): Problem {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const title = typeof b.title === 'string' ? b.title : status === 429 ? 'Too many requests.' : statusText || `Request failed (${status})`;
    return {
      title,
      status,
      type: typeof b.type === 'string' ? b.type : undefined,
      detail: typeof b.detail === 'string' ? b.detail : undefined,
      code: typeof b.code === 'string' ? b.code : undefined,
      errors: b.errors && typeof b.errors === 'object' ? (b.errors as Record<string, string[]>) : undefined,
      retryAfterSeconds: typeof b.retryAfterSeconds === 'number' ? b.retryAfterSeconds : undefined,
    };
  }
  return { title: statusText || `Request failed (${status})`, status };
}

export async function api<T = unknown>(path: string, init: { method?: Method; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      cache: 'no-store',
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError({ title: 'The server could not be reached.', detail: 'Check your connection and try again.', status: 0 });
  }
  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  if (!response.ok) {
    const problem = asProblem(response.status, body, response.statusText);
    if (problem.status === 429 && problem.retryAfterSeconds === undefined) {
      const retry = Number(response.headers.get('retry-after'));
      if (Number.isFinite(retry) && retry > 0) problem.retryAfterSeconds = retry;
    }
    throw new ApiError(problem);
  }
  return body as T;
}

/** `?page=..&search=..` from a list query; empty values are left out. */
export function listParams(q: ListQuery & Record<string, string | number | boolean | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === '' || v === false) continue;
    p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** A sentence for a failure, for summaries and toasts. */
export function problemMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const p = error.problem;
    if (p.status === 429) {
      const s = p.retryAfterSeconds;
      return s ? `Too many attempts. Try again in ${s < 90 ? `${s} seconds` : `${Math.ceil(s / 60)} minutes`}.` : 'Too many attempts. Try again later.';
    }
    if (p.status === 403) return p.detail ? `${p.title} ${p.detail}` : p.title;
    if (p.status >= 500) return 'Something went wrong on the server. Try again in a moment.';
    return p.detail && p.detail !== p.title && p.code !== 'Validation.Failed' ? `${p.title} ${p.detail}` : p.title;
  }
  return 'Something went wrong. Try again.';
}

import { problemFromError, PROBLEM_CONTENT_TYPE } from '../errors/problem';
import { toWire } from '../web/casing';

// Every JSON answer goes through here: nulls omitted, dates as ISO strings (CONTRACT.md).
export function jsonResponse(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/json; charset=utf-8');
  h.set('cache-control', 'no-store');
  return new Response(body === undefined ? null : JSON.stringify(toWire(body)), { status, headers: h });
}

export function problemResponse(error: unknown, context?: string): Response {
  const p = problemFromError(error, context);
  const h = new Headers(p.headers);
  h.set('content-type', PROBLEM_CONTENT_TYPE);
  h.set('cache-control', 'no-store');
  return new Response(JSON.stringify(p.body), { status: p.status, headers: h });
}

import type { ServerResponse } from 'node:http';
import { problemFromError, PROBLEM_CONTENT_TYPE } from '../errors/problem';

/** Writes a problem+json answer on a raw Node response (server.ts paths outside Next). */
export function sendProblem(res: ServerResponse, error: unknown): void {
  const p = problemFromError(error, 'server');
  const body = JSON.stringify(p.body);
  res.writeHead(p.status, { 'content-type': PROBLEM_CONTENT_TYPE, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...p.headers });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}

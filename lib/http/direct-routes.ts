import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { AnyEndpoint, HttpMethod } from './endpoint';
import { routeHandlerOf, type RouteHandler } from './route';

// The JSON API served by server.ts itself, outside Next's app-route pipeline (issue 14: Next's
// router, app-route handling and web streams took two thirds of a sign-in's main-thread time).
// Each endpoint runs through the same toRouteHandler wrapper as its app/api route file, so the
// order of checks, the answers and the problems are the same; only the request's way in differs.
//
// The table mirrors Next's matching so that a request is served here only where Next would have
// called the same handler: a path template matches segment by segment, a static segment wins over
// a parameter at the same depth (Next's priority), and when the best-matching path has no
// endpoint for the method the request is left to Next (its 405, HEAD and OPTIONS answers stay
// Next's). catalog.test.ts checks that every endpoint here has its route file and the reverse.

type Pattern = {
  /** A literal segment, or null for a `{param}` segment. */
  segments: (string | null)[];
  names: string[];
  handlers: Map<HttpMethod, RouteHandler>;
};

export type DirectMatch = { handler: RouteHandler; params: Record<string, string> };

export type DirectRoutes = { match(method: string, pathname: string): DirectMatch | undefined };

function parse(template: string): Pick<Pattern, 'segments' | 'names'> {
  const segments: (string | null)[] = [];
  const names: string[] = [];
  for (const part of template.split('/').slice(1)) {
    const param = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
    if (param) names.push(param[1]);
    segments.push(param ? null : part);
  }
  return { segments, names };
}

/** -1 when `a` is the more specific of two templates matching the same path (static before parameter). */
function bySpecificity(a: Pattern, b: Pattern): number {
  for (let i = 0; i < a.segments.length; i++) {
    const sa = a.segments[i] !== null;
    const sb = b.segments[i] !== null;
    if (sa !== sb) return sa ? -1 : 1;
  }
  return 0;
}

export function directRoutes(endpoints: readonly AnyEndpoint[]): DirectRoutes {
  const byTemplate = new Map<string, Pattern>();
  for (const e of endpoints) {
    let pattern = byTemplate.get(e.path);
    if (!pattern) byTemplate.set(e.path, (pattern = { ...parse(e.path), handlers: new Map() }));
    if (pattern.handlers.has(e.method)) throw new Error(`two endpoints declare ${e.method} ${e.path}`);
    pattern.handlers.set(e.method, routeHandlerOf(e));
  }
  // Grouped by segment count, most specific first: the first template that matches is Next's choice.
  const byLength = new Map<number, Pattern[]>();
  for (const p of byTemplate.values()) {
    const list = byLength.get(p.segments.length) ?? [];
    list.push(p);
    byLength.set(p.segments.length, list);
  }
  for (const list of byLength.values()) list.sort(bySpecificity);

  return {
    match(method, pathname) {
      const parts = pathname.split('/').slice(1);
      const candidates = byLength.get(parts.length);
      if (!candidates) return undefined;
      for (const p of candidates) {
        const values: string[] = [];
        let matched = true;
        for (let i = 0; i < parts.length; i++) {
          const literal = p.segments[i];
          if (literal === null ? parts[i] === '' : parts[i] !== literal) {
            matched = false;
            break;
          }
          if (literal === null) values.push(parts[i]);
        }
        if (!matched) continue;
        const handler = p.handlers.get(method as HttpMethod);
        if (!handler) return undefined; // Next's answer for this path and method
        let params: Record<string, string>;
        try {
          params = Object.fromEntries(p.names.map((name, i) => [name, decodeURIComponent(values[i])]));
        } catch {
          return undefined; // not decodable: left to Next, as before
        }
        return { handler, params };
      }
      return undefined;
    },
  };
}

/** The Fetch API request a route handler reads: the same headers, the body read only when asked for. */
function webRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  // ReadableStream.from pulls from the request only when the handler reads its body; a body left
  // unread is then discarded by Node's server when the answer ends, so the connection stays usable.
  const body = method === 'GET' || method === 'HEAD' ? null : (NodeReadableStream.from(req) as unknown as ReadableStream<Uint8Array>);
  return new Request(`${origin}${req.url ?? '/'}`, { method, headers, body, duplex: 'half' } as RequestInit);
}

const gzipAsync = promisify(gzip);

// Compressed as Next compressed these answers before (its `compress` default, for compressible
// types from 1 KiB): JSON and text, when the client accepts gzip.
const COMPRESSIBLE_TYPE = /^(application\/([a-z0-9.+-]*\+)?json|text\/)/i;
const MIN_COMPRESSED_BYTES = 1024;

/** Whether an Accept-Encoding header admits gzip (by name, or `*`), with a weight above zero. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  let named: number | undefined;
  let any: number | undefined;
  for (const part of header.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (coding === 'gzip' || coding === 'x-gzip') named = weight;
    else if (coding === '*') any = weight;
  }
  const weight = named ?? any ?? 0;
  return Number.isFinite(weight) && weight > 0;
}

/** A one-chunk body as it goes out: gzipped when it is worth it and the client takes it. */
async function encodedBody(body: Uint8Array, req: IncomingMessage, res: ServerResponse): Promise<Uint8Array> {
  const type = res.getHeader('content-type');
  if (body.byteLength < MIN_COMPRESSED_BYTES || typeof type !== 'string' || !COMPRESSIBLE_TYPE.test(type) || res.hasHeader('content-encoding')) return body;
  res.appendHeader('vary', 'Accept-Encoding');
  if (!acceptsGzip(req.headers['accept-encoding'])) return body;
  res.setHeader('content-encoding', 'gzip');
  return gzipAsync(body);
}

async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== 'set-cookie') res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('set-cookie', cookies);
  if (!response.body) {
    res.end();
    return;
  }
  // A body made from a string or buffer (every JSON answer) arrives in one chunk: it is sent with
  // its length. Anything longer (a download) streams, with backpressure.
  const reader = response.body.getReader();
  const first = await reader.read();
  if (first.done) return void res.end();
  const second = await reader.read();
  if (second.done) {
    const body = await encodedBody(first.value, req, res);
    res.setHeader('content-length', body.byteLength);
    res.end(body);
    return;
  }
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      yield first.value!;
      yield second.value!;
      for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
    } finally {
      // A client that went away: the handler's stream is told to stop producing.
      await reader.cancel().catch(() => undefined);
    }
  }
  await pipeline(Readable.from(chunks(), { objectMode: false }), res);
}

/** Serves one request through a matched endpoint's route handler. `origin` is the request's scheme and Host. */
export async function serveDirect(match: DirectMatch, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const response = await match.handler(webRequest(req, origin), { params: Promise.resolve(match.params) });
  await writeResponse(response, req, res);
}

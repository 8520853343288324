import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

// A Fetch API route handler on node:http, for the endpoints server.ts answers itself
// (direct-routes.ts): the request handed over as a Request, the Response written back as Next
// wrote it (status, headers, each Set-Cookie, the body, gzip where Next's compress applied).

/** The Fetch API request a route handler reads: the same headers, the body read only when asked for. */
export function webRequest(req: IncomingMessage, origin: string): Request {
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

export async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
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

import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyEndpoint } from './endpoint';
import { gunzipSync } from 'node:zlib';
import { directRoutes, serveDirect, type DirectMatch } from './direct-routes';
import { acceptsGzip } from './node-bridge';

const endpoint = (method: AnyEndpoint['method'], path: string): AnyEndpoint =>
  ({ method, path, summary: path, tags: [], auth: 'anonymous', handler: async () => undefined }) as unknown as AnyEndpoint;

describe('directRoutes: the same choice as Next', () => {
  const routes = directRoutes([
    endpoint('GET', '/api/admin/users/{id}'),
    endpoint('DELETE', '/api/admin/users/{id}'),
    endpoint('POST', '/api/admin/users/invite'),
    endpoint('GET', '/api/admin/users'),
    endpoint('GET', '/api/admin/users/{id}/roles/{roleId}'),
  ]);

  it('matches a template and decodes its parameters', () => {
    expect(routes.match('GET', '/api/admin/users/a%20b')?.params).toEqual({ id: 'a b' });
    expect(routes.match('GET', '/api/admin/users/u1/roles/r%2F2')?.params).toEqual({ id: 'u1', roleId: 'r/2' });
    expect(routes.match('GET', '/api/admin/users')?.params).toEqual({});
  });

  it('prefers a static segment, and leaves to Next a method the chosen path lacks', () => {
    // GET /api/admin/users/invite is the invite route's path (POST only): Next answers 405 there,
    // so it must not fall through to GET /api/admin/users/{id}.
    expect(routes.match('GET', '/api/admin/users/invite')).toBeUndefined();
    expect(routes.match('POST', '/api/admin/users/invite')).toBeDefined();
    expect(routes.match('PUT', '/api/admin/users/u1')).toBeUndefined();
  });

  it('leaves to Next what it would redirect, refuse or not find', () => {
    for (const path of ['/api/admin/users/', '/api/admin/users//roles/r', '/api/admin/users/u1/roles', '/api/other', '/api/admin/users/%E0%A4%A']) {
      expect(routes.match('GET', path), path).toBeUndefined();
    }
  });

  it('refuses two endpoints for one method and path', () => {
    expect(() => directRoutes([endpoint('GET', '/api/x'), endpoint('GET', '/api/x')])).toThrow(/two endpoints/);
  });
});

describe('serveDirect: a route handler on node:http', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A server answering every request through `handler`; resolves its port. */
  async function serve(handler: DirectMatch['handler'], params: Record<string, string> = {}): Promise<number> {
    server = createServer((req, res) => {
      serveDirect({ handler, params }, req, res, `http://${req.headers.host}`).catch(() => res.destroy());
    });
    const listening = server;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    return (listening.address() as AddressInfo).port;
  }

  type Answer = { status: number; headers: IncomingHttpHeaders; body: string; raw: Buffer };
  function send(port: number, o: { method?: string; path?: string; body?: string; agent?: Agent; acceptEncoding?: string } = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = { host: 'realm.test' };
      if (o.acceptEncoding) headers['accept-encoding'] = o.acceptEncoding;
      const req = httpRequest({ port, host: '127.0.0.1', method: o.method ?? 'GET', path: o.path ?? '/api/x?a=1', agent: o.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw.toString('utf8'), raw });
        });
      });
      req.on('error', reject);
      req.end(o.body);
    });
  }

  it('hands over the URL, headers, parameters and body, and sends status, headers and cookies back', async () => {
    const port = await serve(
      async (request, next) => {
        const seen = { url: request.url, method: request.method, host: request.headers.get('host'), params: await next?.params, body: await request.text() };
        const headers = new Headers({ 'content-type': 'application/json' });
        headers.append('set-cookie', 'a=1; Path=/');
        headers.append('set-cookie', 'b=2; Path=/');
        return new Response(JSON.stringify(seen), { status: 201, headers });
      },
      { id: 'u1' },
    );
    const r = await send(port, { method: 'POST', body: '{"x":1}' });
    expect(r.status).toBe(201);
    expect(r.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    // One chunk: sent with its length, not chunked.
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(r.body)));
    expect(JSON.parse(r.body)).toEqual({ url: 'http://realm.test/api/x?a=1', method: 'POST', host: 'realm.test', params: { id: 'u1' }, body: '{"x":1}' });
  });

  it('streams a body of several chunks', async () => {
    const port = await serve(async () => {
      const parts = ['one,', 'two,', 'three'];
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = parts.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(next));
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/plain' } });
    });
    const r = await send(port);
    expect(r.body).toBe('one,two,three');
    expect(r.headers['transfer-encoding']).toBe('chunked');
  });

  it('gzips a JSON answer of 1 KiB or more when the client accepts it, as Next did', async () => {
    const big = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: `item-${i}` })) });
    const port = await serve(async (request) =>
      Response.json(request.url.endsWith('small') ? { ok: true } : JSON.parse(big), { headers: { 'content-type': 'application/json; charset=utf-8' } }),
    );
    const zipped = await send(port, { acceptEncoding: 'br, gzip;q=0.8' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(Number(zipped.headers['content-length'])).toBe(zipped.raw.byteLength);
    expect(gunzipSync(zipped.raw).toString('utf8')).toBe(big);
    const refused = await send(port, { acceptEncoding: 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(big);
    const small = await send(port, { path: '/api/small', acceptEncoding: 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('{"ok":true}');
  });

  it('reads Accept-Encoding by its weights', () => {
    expect(acceptsGzip('gzip')).toBe(true);
    expect(acceptsGzip('deflate, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('*;q=0')).toBe(false);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it('keeps a kept-alive connection usable when the handler never reads the body', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const port = await serve(async () => new Response(null, { status: 204 }));
    const big = 'x'.repeat(256 * 1024);
    const first = await send(port, { method: 'POST', body: big, agent });
    const second = await send(port, { method: 'POST', body: big, agent });
    agent.destroy();
    expect([first.status, second.status]).toEqual([204, 204]);
  });
});

import { request } from 'node:http';
import type * as oidc from 'openid-client';

// openid-client's fetch for a realm under test. Node does not resolve `*.localhost`, so every request
// connects to 127.0.0.1 on the test server's port and names the realm in the Host header. Shared by
// the HTTP tests (e2e/api) and the browser tests' back channel (e2e/ui).
export function realmFetchOn(port: number): oidc.CustomFetch {
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const headers: Record<string, string> = { host: target.host };
      new Headers(options.headers).forEach((v, k) => (headers[k] = v));
      const body = options.body === undefined || options.body === null ? undefined : typeof options.body === 'string' ? options.body : options.body.toString();
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const req = request(
        { host: '127.0.0.1', port, method: options.method, path: target.pathname + target.search, headers, setHost: false, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const h = new Headers();
            for (const [k, v] of Object.entries(res.headers)) {
              if (Array.isArray(v)) v.forEach((x) => h.append(k, x));
              else if (v !== undefined) h.set(k, String(v));
            }
            const status = res.statusCode ?? 0;
            resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: h }));
          });
        },
      );
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
}

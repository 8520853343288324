import { request, type IncomingHttpHeaders } from 'node:http';

// HTTP to a test server. Node does not resolve *.localhost, so every request connects to 127.0.0.1
// and names the realm in the Host header. A write that carries cookies goes out as a browser's
// same-origin fetch would (`Sec-Fetch-Site: same-origin`), since the server refuses cookie-carrying
// writes with neither Origin nor Sec-Fetch-Site (docs/security.md, "CSRF"); a test
// that sends its own Origin or Sec-Fetch-Site, or asks for `browser: false`, gets exactly those.
// Requests without cookies (bearer tokens, anonymous calls) go out with neither.

export type ApiOptions = {
  /** A JSON body (serialised here), or a raw string/Buffer sent as is. */
  body?: unknown;
  /** Sent verbatim as the body; `contentType` defaults to application/json. */
  rawBody?: string | Buffer;
  contentType?: string | null;
  /** A Cookie header value, or a jar whose cookies are sent and which takes the answer's cookies. */
  cookie?: string | CookieJar;
  headers?: Record<string, string>;
  /** false: send a cookie-carrying write without the same-origin header a browser would add. */
  browser?: boolean;
  /** Another server than the main one. */
  port?: number;
  timeoutMs?: number;
};

// Bodies default to `any` on purpose: tests read deep into answers and assert on them; a wrong
// guess fails the assertion, which is the point.
export type ApiResponse<T = any> = {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: T;
  text: string;
  contentType: string;
  setCookies: string[];
};

/** A minimal cookie jar for one host: name -> value, Max-Age=0 / past Expires delete. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  update(setCookies: readonly string[]): void {
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => {
        const [k, v = ''] = a.trim().split('=');
        if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (k.toLowerCase() === 'expires') return new Date(v).getTime() <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  get size(): number {
    return this.cookies.size;
  }

  toString(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function namesFetchOrigin(headers: Record<string, string>): boolean {
  return Object.keys(headers).some((h) => h.toLowerCase() === 'origin' || h.toLowerCase() === 'sec-fetch-site');
}

export function sendRequest<T = any>(port: number, host: string, method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { host, accept: 'application/json', ...(options.headers ?? {}) };
  let payload: Buffer | undefined;
  if (options.rawBody !== undefined) payload = Buffer.isBuffer(options.rawBody) ? options.rawBody : Buffer.from(options.rawBody);
  else if (options.body !== undefined) payload = Buffer.from(JSON.stringify(options.body));
  if (payload) {
    if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
    // A test may ask for a chunked body instead (no Content-Length to check against a limit).
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'transfer-encoding')) headers['content-length'] = String(payload.length);
  }
  const jar = options.cookie instanceof CookieJar ? options.cookie : undefined;
  const cookie = jar ? jar.toString() : options.cookie;
  if (cookie) headers.cookie = cookie as string;
  if (cookie && options.browser !== false && !SAFE_METHODS.has(method.toUpperCase()) && !namesFetchOrigin(headers)) {
    headers['sec-fetch-site'] = 'same-origin';
  }

  return new Promise((resolve, reject) => {
    // One connection per request: a server that answers early (413) and drops the rest of an upload
    // must not poison a pooled keep-alive socket for the next test.
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: false, agent: false, timeout: options.timeoutMs ?? 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const contentType = String(res.headers['content-type'] ?? '');
        let body: unknown;
        if (text && /json/i.test(contentType)) {
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
        }
        const setCookies = res.headers['set-cookie'] ?? [];
        jar?.update(setCookies);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as T, text, contentType, setCookies });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} (Host ${host}) timed out`)));
    // A server may answer (413) and close before the whole body is written: keep its answer.
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** The value of a cookie in a response's Set-Cookie headers, or undefined. */
export function cookieFrom(setCookies: readonly string[], name: string): string | undefined {
  for (const line of setCookies) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

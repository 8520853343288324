import http from 'node:http';

// A tiny HTTP client for set-up calls (node:http, because fetch will not send a Host header of our
// choosing, and the realm is chosen by Host). Connects to 127.0.0.1.

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

export type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string; json<T = unknown>(): T };

export type RequestOptions = {
  port: number;
  path: string;
  method?: string;
  host?: string;
  cookie?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as application/x-www-form-urlencoded (the OAuth endpoints), instead of `body`; a string is sent as it is (already encoded). */
  form?: Record<string, string> | string;
  headers?: Record<string, string>;
};

export function request(opts: RequestOptions): Promise<Reply> {
  const json = opts.body !== undefined && !opts.form;
  const payload = opts.form
    ? typeof opts.form === 'string'
      ? opts.form
      : new URLSearchParams(opts.form).toString()
    : json
      ? JSON.stringify(opts.body)
      : undefined;
  const headers: Record<string, string> = { host: opts.host ?? 'localhost', ...opts.headers };
  if (payload !== undefined) {
    headers['content-type'] = opts.form ? 'application/x-www-form-urlencoded' : 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  if (opts.cookie) headers.cookie = opts.cookie;
  // A write with a session cookie goes out as a page's same-origin fetch would: the server refuses
  // cookie-carrying writes that send neither Origin nor Sec-Fetch-Site (lib/web/csrf.ts).
  const method = (opts.method ?? 'GET').toUpperCase();
  const namesOrigin = Object.keys(headers).some((h) => h.toLowerCase() === 'origin' || h.toLowerCase() === 'sec-fetch-site');
  if (opts.cookie && !['GET', 'HEAD', 'OPTIONS'].includes(method) && !namesOrigin) headers['sec-fetch-site'] = 'same-origin';
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: opts.port, path: opts.path, method: opts.method ?? 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T });
      });
      res.on('error', reject);
    });
    req.setTimeout(120_000, () => req.destroy(new Error(`timeout: ${opts.method ?? 'GET'} ${opts.path}`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Like request, but throws unless the status is the expected one. */
export async function expectStatus(status: number, opts: Parameters<typeof request>[0]): Promise<Reply> {
  const r = await request(opts);
  if (r.status !== status)
    throw new Error(
      `${opts.method ?? 'GET'} ${opts.path} (Host ${opts.host ?? 'localhost'}) answered ${r.status}, expected ${status}: ${r.text.slice(0, 500)}`,
    );
  return r;
}

/** The `name=value` part of the session cookie a sign-in set. */
export function sessionCookieFrom(reply: Reply): string {
  const cookies = reply.headers['set-cookie'] ?? [];
  const session = cookies.find((c) => /^(__Host-)?gatehouse_session=/.test(c));
  if (!session) throw new Error('no session cookie in the answer');
  return session.split(';')[0];
}

/** Runs `fn` over `items` with at most `concurrency` calls in flight; resolves results in order. */
export async function mapLimit<T, R>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

export function stopAgent(): void {
  agent.destroy();
}
